import Capture
import Foundation
import Media
import Pipeline

/// Capture-timestamp-to-output latency of the try-on on a live camera: from the V4L2 buffer's
/// CLOCK_MONOTONIC timestamp (when the driver finished the frame) to the encoded output, so it
/// includes the time a frame waits in the driver's queue and in `nextFrame`, not only `process`.
struct BenchDeviceResult: Codable {
    var device: String
    var width: Int
    var height: Int
    var frames: Int
    var captureToOutput: LatencySummary
    var process: LatencySummary
    var framesPerSecond: Double
    var notes: [String]

    func markdown() -> String {
        var s = "## Camera \(device) at \(width)x\(height) (\(frames) frames)\n\n"
        s += "| latency | p50 | p95 | p99 | max |\n|---|---:|---:|---:|---:|\n"
        s += String(format: "| capture timestamp to encoded output | %.2f | %.2f | %.2f | %.2f |\n",
                    captureToOutput.p50, captureToOutput.p95, captureToOutput.p99, captureToOutput.max)
        s += String(format: "| pipeline `process` alone | %.2f | %.2f | %.2f | %.2f |\n", process.p50, process.p95, process.p99, process.max)
        s += String(format: "\n%.1f frames per second delivered.\n", framesPerSecond)
        for note in notes { s += "\nNote: \(note)\n" }
        return s
    }

    static func measure(device: String, width: Int, height: Int, frames: Int, warmup: Int, pipeline: FramePipeline) throws -> BenchDeviceResult {
        let camera = try V4L2Camera(path: device, request: CaptureRequest(width: width, height: height, framesPerSecond: 30))
        defer { camera.close() }
        var latency: [Double] = [], process: [Double] = []
        var size = (width, height)
        let start = BenchClock.wallNanoseconds()
        var measuredStart = start
        for i in 0..<(warmup + frames) {
            guard let frame = try camera.nextFrame() else { break }
            if i == warmup { measuredStart = BenchClock.wallNanoseconds() }
            let t0 = BenchClock.wallNanoseconds()
            let output = try pipeline.process(frame)
            let t1 = BenchClock.wallNanoseconds()
            size = (output.width, output.height)
            guard i >= warmup else { continue }
            latency.append(Double(t1) / 1e6 - frame.timestampSeconds * 1000)
            process.append(BenchClock.milliseconds(t0, t1))
        }
        let seconds = Double(BenchClock.wallNanoseconds() &- measuredStart) / 1e9
        return BenchDeviceResult(device: device, width: size.0, height: size.1, frames: latency.count,
                                 captureToOutput: LatencySummary(latency), process: LatencySummary(process),
                                 framesPerSecond: seconds > 0 ? Double(latency.count) / seconds : 0, notes: camera.issues)
    }
}
