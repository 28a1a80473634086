import Anchors
import CMallocCounter
import FaceTracking
import Foundation
import Imaging
import JPEGCodec
import Media
import Pipeline

/// One timed stage of a bench path: its per-frame wall time.
struct BenchStage: Codable {
    var name: String
    var milliseconds: LatencySummary
}

/// How one path (the whole try-on, or tracking only) of `FramePipeline` did on a workload.
struct BenchPathResult: Codable {
    /// Per stage, as `StageTimings` reports them (stages the path skips are left out).
    var stages: [BenchStage]
    /// Wall time of `process(frame)`, per frame.
    var endToEnd: LatencySummary
    /// The calling thread's CPU time during `process(frame)`, per frame: wall minus preemption.
    var cpu: LatencySummary
    /// Frames per second on one dedicated core: frames / summed thread CPU time of `process`.
    var framesPerSecondOneCore: Double
    /// Frames per second achieved on this machine as it was: frames / summed wall time of `process`.
    var framesPerSecondWall: Double
    /// Threads the pipeline runs a frame on, and the frames per second with them (a one-thread
    /// pipeline: the one-core number).
    var threads: Int
    var framesPerSecondThreads: Double
    /// Heap allocations (every thread) during `process(frame)`, after the warm-up.
    var allocationsPerFrame: Double
    var allocationsMaxPerFrame: Int
    /// Frames on which at least one face was tracked, per cent.
    var facesTrackedPercent: Double
    /// The widest tracked face's jaw-to-jaw width (landmarks 1 and 17) in pixels, median over the
    /// frames with a face (absent without one): the glasses' size on screen, and so the render's
    /// cost, grows with it.
    var faceWidthPixels: Double?
    /// Wall milliseconds of every measured frame, in order (the latency distribution).
    var samples: [Double]
}

/// The JPEG codec floor measured on the same frames in the same run: libjpeg-turbo decode to RGB
/// and encode at the pipeline's quality, with buffers reused, as the try-on does them.
struct BenchFloorResult: Codable {
    var decodeRGB: LatencySummary
    var encode: LatencySummary
    /// Decode RGB + encode: the floor of a try-on frame.
    var total: LatencySummary
    /// The same, in the calling thread's CPU time.
    var cpu: LatencySummary
    /// Decode to gray alone: the codec part of the tracking path.
    var decodeGray: LatencySummary
    /// Heap allocations per frame of decode RGB + encode (the encoded bytes included), and of the gray decode.
    var allocationsPerFrame: Double
    var grayDecodeAllocationsPerFrame: Double
    var samples: [Double]
}

/// Everything measured on one workload (input at one size).
struct BenchRunResult: Codable {
    var input: String
    var width: Int
    var height: Int
    var warmupFrames: Int
    var frames: Int
    var floor: BenchFloorResult
    var tracking: BenchPathResult
    var tryOn: BenchPathResult
    /// Try-on end-to-end p50 over the floor's p50 (same frames, same run), in wall and in thread CPU time.
    var tryOnToFloorRatio: Double
    var tryOnToFloorRatioCPU: Double

    var size: String { "\(width)x\(height)" }
}

/// Runs the floor, the tracking path and the try-on path frame by frame, interleaved, so that all
/// three see the same frames and the same machine load (a neighbour's burst hits all three alike).
struct BenchRunner {
    let makePipeline: (PipelineMode) throws -> FramePipeline
    let quality: Int

    func run(_ workload: BenchWorkload, frames: Int, warmup: Int) throws -> BenchRunResult {
        let tracking = try makePipeline(.trackingOnly)
        let tryOn = try makePipeline(.tryOn)
        let codec = CodecFloor(decoder: TurboJPEGDecoder(), encoder: TurboJPEGEncoder(), quality: quality)
        var floorDecode: [Double] = [], floorEncode: [Double] = [], floorAllocations = 0
        var grayDecode: [Double] = [], grayAllocations = 0, floorCPU: [Double] = []
        var trackingRecorder = PathRecorder(), tryOnRecorder = PathRecorder()

        for i in 0..<(warmup + frames) {
            let measured = i >= warmup
            let frame = workload.frame(i)
            let bytes = workload.jpeg(i)

            let a0 = lm_allocation_count()
            let c0 = BenchClock.threadCPUNanoseconds()
            let t0 = BenchClock.wallNanoseconds()
            try codec.decodeRGB(bytes)
            let t1 = BenchClock.wallNanoseconds()
            try codec.encodeCanvas()
            let t2 = BenchClock.wallNanoseconds()
            let c1 = BenchClock.threadCPUNanoseconds()
            let a1 = lm_allocation_count()
            try codec.decodeGray(bytes)
            let t3 = BenchClock.wallNanoseconds()
            let a2 = lm_allocation_count()
            if measured {
                floorDecode.append(BenchClock.milliseconds(t0, t1))
                floorEncode.append(BenchClock.milliseconds(t1, t2))
                floorAllocations += Int(a1 &- a0)
                floorCPU.append(BenchClock.milliseconds(c0, c1))
                grayDecode.append(BenchClock.milliseconds(t2, t3))
                grayAllocations += Int(a2 &- a1)
            }

            try trackingRecorder.measure(tracking, frame, record: measured)
            try tryOnRecorder.measure(tryOn, frame, record: measured)
        }

        let floorTotal = zip(floorDecode, floorEncode).map { $0 + $1 }
        let floor = BenchFloorResult(decodeRGB: LatencySummary(floorDecode), encode: LatencySummary(floorEncode),
                                     total: LatencySummary(floorTotal), cpu: LatencySummary(floorCPU), decodeGray: LatencySummary(grayDecode),
                                     allocationsPerFrame: Double(floorAllocations) / Double(max(frames, 1)),
                                     grayDecodeAllocationsPerFrame: Double(grayAllocations) / Double(max(frames, 1)),
                                     samples: floorTotal)
        let tryOnResult = tryOnRecorder.result()
        return BenchRunResult(input: workload.name, width: workload.width, height: workload.height,
                              warmupFrames: warmup, frames: frames, floor: floor,
                              tracking: trackingRecorder.result(), tryOn: tryOnResult,
                              tryOnToFloorRatio: floor.total.p50 > 0 ? tryOnResult.endToEnd.p50 / floor.total.p50 : 0,
                              tryOnToFloorRatioCPU: floor.cpu.p50 > 0 ? tryOnResult.cpu.p50 / floor.cpu.p50 : 0)
    }
}

/// Collects per-frame timings and allocation counts of one pipeline path.
struct PathRecorder {
    private var stageNames: [String] = []
    private var stageSamples: [[Double]] = []
    private var wall: [Double] = []
    private var cpu: [Double] = []
    private var allocations: [Int] = []
    private var withFace = 0
    private var faceWidths: [Double] = []

    mutating func measure(_ pipeline: FramePipeline, _ frame: Frame, record: Bool) throws {
        let a0 = lm_allocation_count()
        let c0 = BenchClock.threadCPUNanoseconds()
        let t0 = BenchClock.wallNanoseconds()
        let output = try pipeline.process(frame)
        let t1 = BenchClock.wallNanoseconds()
        let c1 = BenchClock.threadCPUNanoseconds()
        let a1 = lm_allocation_count()
        guard record else { return }
        let stages = output.timings.stages
        if stageNames.isEmpty {
            stageNames = stages.map(\.name)
            stageSamples = Array(repeating: [], count: stages.count)
        }
        for (k, stage) in stages.enumerated() where k < stageSamples.count { stageSamples[k].append(stage.seconds * 1000) }
        wall.append(BenchClock.milliseconds(t0, t1))
        cpu.append(BenchClock.milliseconds(c0, c1))
        allocations.append(Int(a1 &- a0))
        if !output.anchors.isEmpty { withFace += 1 }
        if let width = output.anchors.lazy.map(Self.jawWidth).max() { faceWidths.append(width) }
    }

    /// Jaw to jaw (iBUG points 1 and 17), pixels; 0 for a shape without them.
    private static func jawWidth(_ anchor: FaceAnchor) -> Double {
        guard anchor.landmarks.count >= 17 else { return 0 }
        let d = anchor.landmarks[16] - anchor.landmarks[0]
        return Double((d * d).sum().squareRoot())
    }

    func result() -> BenchPathResult {
        // A stage that never took time on this path (render when tracking only) is not part of it.
        let stages = zip(stageNames, stageSamples).filter { $0.1.contains { $0 > 0 } }
            .map { BenchStage(name: $0.0, milliseconds: LatencySummary($0.1)) }
        let wallSeconds = wall.reduce(0, +) / 1000, cpuSeconds = cpu.reduce(0, +) / 1000
        let oneCore = cpuSeconds > 0 ? Double(cpu.count) / cpuSeconds : 0
        return BenchPathResult(stages: stages, endToEnd: LatencySummary(wall), cpu: LatencySummary(cpu),
                               framesPerSecondOneCore: oneCore,
                               framesPerSecondWall: wallSeconds > 0 ? Double(wall.count) / wallSeconds : 0,
                               threads: 1, framesPerSecondThreads: oneCore,
                               allocationsPerFrame: Double(allocations.reduce(0, +)) / Double(max(allocations.count, 1)),
                               allocationsMaxPerFrame: allocations.max() ?? 0,
                               facesTrackedPercent: wall.isEmpty ? 0 : 100 * Double(withFace) / Double(wall.count),
                               faceWidthPixels: faceWidths.isEmpty ? nil : LatencySummary.percentile(faceWidths.sorted(), 0.5),
                               samples: wall)
    }
}
