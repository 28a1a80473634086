import ArgumentParser
import Foundation
import Pipeline

/// `lorgnette bench`: times the try-on pipeline (`FramePipeline`, the same facade `live` drives) and
/// its tracking-only path on recorded frames, next to the JPEG decode+encode floor measured on the
/// same frames in the same run, and next to peer trackers when they are installed.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Frame-latency benchmark: per-stage and end-to-end p50/p95/p99/max, fps, allocations, ratio to the JPEG codec floor, peers.",
        discussion: """
            Inputs: the embedded demo source and every --input (\(MediaFactory.inputHelp)), each brought to \
            every --size (default 640x480 and 1280x720: scaled to cover, centre-cropped) and encoded as a \
            webcam's MJPEG (quality 85), held in memory. Per frame, interleaved: the floor (libjpeg-turbo \
            decode RGB + encode), the tracking path (decode gray, track, pose, smoothing and the per-face \
            stages) and the whole try-on (decode, track, render, annotate, encode). With --device, also \
            the capture-timestamp-to-output latency on the camera. Peers (MediaPipe face mesh, dlib) run \
            through Bench/Peers/peer_timing.py when python3 and their packages are installed. Build with \
            -c release for meaningful numbers.
            """
    )

    @Option(name: .customLong("input"), help: "A recorded clip to run besides the demo (repeatable).")
    var inputs: [String] = []

    @Option(help: "Camera device (/dev/videoN): also measure capture-timestamp-to-output latency.")
    var device: String?

    @Option(name: .customLong("size"), help: "Frame size WxH (repeatable; default 640x480 and 1280x720).")
    var sizes: [String] = []

    @Option(help: "Frames measured per input and size, after the warm-up.")
    var frames = 300

    @Option(help: "Frames run before measuring (first detection, buffers, caches).")
    var warmup = 15

    @Option(help: "Write the full report (every sample) as JSON.")
    var json: String?

    @Option(help: "Write the report as Markdown.")
    var markdown: String?

    @Option(help: "Write the per-stage breakdown and latency distributions as an SVG picture.")
    var svg: String?

    @OptionGroup var glassesOptions: GlassesOptions

    @Flag(name: .customLong("no-demo"), help: "Leave the embedded demo out (only the --input files or the --device).")
    var noDemo = false

    @Flag(name: .customLong("no-peers"), help: "Do not time the peer systems.")
    var noPeers = false

    func validate() throws {
        if device != nil && !inputs.isEmpty { throw ValidationError("give --device or --input, not both") }
        if frames <= 0 { throw ValidationError("--frames must be positive") }
        if warmup < 0 { throw ValidationError("--warmup must not be negative") }
        if noDemo && inputs.isEmpty && device == nil { throw ValidationError("--no-demo needs an --input or a --device") }
        for size in sizes {
            let (w, h) = try RecordCommand.parseSize(size)
            if w < 64 || h < 64 || w > 7680 || h > 4320 { throw ValidationError("--size must be between 64x64 and 7680x4320, got \(size)") }
        }
        for (flag, path) in [("--json", json), ("--markdown", markdown), ("--svg", svg)] {
            guard let path else { continue }
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && !MediaFactory.isDirectory(parent) { throw ValidationError("\(flag): folder \(parent) does not exist") }
        }
    }

    func run() throws {
        try reportingErrors("bench") {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--json", json), ("--markdown", markdown), ("--svg", svg)],
                                                     inputs: inputs + [glassesOptions.choice])
            try bench()
        }
    }

    private func bench() throws {
        let loadBefore = BenchMachine.loadAverage()
        let library = try PipelineFactory.glassesLibrary(lensNames: glassesOptions.lensNames, allowsFilesOutsideFolder: glassesOptions.allowOutsideURIs)
        let glasses: FittedGlasses
        do { glasses = try library.load(glassesOptions.choice) } catch let e as PipelineError { throw CLIError(e.description) }
        let runner = BenchRunner(makePipeline: { mode in
            var configuration = PipelineConfiguration()
            configuration.mode = mode
            configuration.jpegQuality = BenchWorkload.quality
            // Issue 9's tracking path ends with lighting and metrics; the try-on path is decode → track →
            // light → render → encode, as `live` runs it by default.
            configuration.measureFaces = mode == .trackingOnly
            return try PipelineFactory.makePipeline(glasses: glasses, face: library.face, configuration: configuration)
        }, quality: BenchWorkload.quality)

        let sizeList = try (sizes.isEmpty ? ["640x480", "1280x720"] : sizes).map { try RecordCommand.parseSize($0) }
        // Every input must decode before minutes of measuring start: its first frame is loaded now.
        for spec in inputs { _ = try BenchWorkload.load(spec: spec, width: sizeList[0].0, height: sizeList[0].1, count: 1) }
        let specs = (noDemo ? [] : ["demo"]) + inputs
        #if DEBUG
        printError("bench: warning: debug build; timings are not representative (swift build -c release)")
        #endif

        // The camera first, for the same reason: a missing or unplugged device fails at once.
        var deviceResult: BenchDeviceResult?
        if let device {
            let (w, h) = sizeList[0]
            printError("bench: camera \(device) at \(w)x\(h): \(warmup) warm-up + \(frames) frames")
            var configuration = PipelineConfiguration()
            configuration.jpegQuality = BenchWorkload.quality
            let pipeline = try PipelineFactory.makePipeline(glasses: glasses, face: library.face, configuration: configuration)
            deviceResult = try BenchDeviceResult.measure(device: device, width: w, height: h, frames: frames, warmup: warmup, pipeline: pipeline)
        }
        var runs: [BenchRunResult] = []
        var workloads: [BenchWorkload] = []
        for spec in specs {
            for (w, h) in sizeList {
                let workload = try BenchWorkload.load(spec: spec, width: w, height: h, count: warmup + frames)
                printError("bench: \(workload.name) at \(w)x\(h): \(warmup) warm-up + \(frames) frames (\(workload.jpegs.count) distinct), glasses \(glasses.name)")
                let result = try runner.run(workload, frames: frames, warmup: warmup)
                printError(String(format: "bench:   try-on p50 %.2f ms (floor %.2f ms, %.2fx), tracking p50 %.2f ms",
                                  result.tryOn.endToEnd.p50, result.floor.total.p50, result.tryOnToFloorRatio, result.tracking.endToEnd.p50))
                runs.append(result)
                workloads.append(workload)
            }
        }

        var peers: BenchPeerReport?
        if !noPeers, let k = runs.indices.first(where: { runs[$0].width == 640 && runs[$0].height == 480 }) ?? runs.indices.first {
            printError("bench: peers on \(workloads[k].name) at \(runs[k].size) ...")
            peers = BenchPeers.run(workloads[k], count: warmup + frames, warmup: warmup, ours: runs[k].tracking)
            for reason in peers?.skipped ?? [] { printError("bench: skipped \(reason)") }
        }

        let formatter = ISO8601DateFormatter()
        let report = BenchReport(date: formatter.string(from: Date()), machine: BenchMachine.current(loadBefore: loadBefore),
                                 runs: runs, device: deviceResult, peers: peers, bars: BenchReport.bars(runs))
        let text = report.markdown()
        print(text, terminator: "")
        if let json { try OutputFile.write(try report.json(), to: json) }
        if let markdown { try OutputFile.write(text, to: markdown) }
        if let svg { try OutputFile.write(BenchSVG.render(report), to: svg) }
    }
}
