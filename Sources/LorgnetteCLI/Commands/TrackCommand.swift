import Anchors
import Annotation
import ArgumentParser
import Capture
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import JPEGCodec
import Landmarks
import LightEstimation
import Media
import Pipeline
import PoseEstimation
import Smoothing

/// `lorgnette track`: the face anchor on a video or a camera, as annotated frames and/or JSON lines.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Track faces: landmarks, metric head pose and identity per frame (the face anchor).",
        discussion: """
            Detects faces only when none is tracked, then follows each one with the landmark regressor \
            started from its previous shape. A face is dropped and re-detected when the tracking \
            confidence classifier (--confidence-model, a logistic regression on the landmark \
            descriptors) says its fitted shape is no longer on a face for 2 frames in a row; detections \
            must pass it too. With --confidence-model none, a rigid pose fit confidence below \
            --loss-confidence drops the face instead. Landmarks and pose are smoothed by One Euro \
            filters driven by the frame timestamps (--no-smoothing to compare): rotation, the direction \
            to the face and its depth each with their own still cutoff.
            With --json, one line per frame:
            {"frame": i, "time": t_seconds, "faces": [{"id": k, "landmarks": [[x, y]...68], \
            "pupils": [[x, y], [x, y]], "pose": {"rotation_deg": [pitch, yaw, roll], \
            "translation_mm": [x, y, z]}, "confidence": c, "head_width": w, "state": "detected|tracked"}]}
            Pixels are 0-based (top-left pixel centre at (0, 0)); pupils are the mean face's pupils \
            projected with the pose, image-left first; "confidence" is the classifier's face probability \
            (the pose fit's confidence with --confidence-model none); "head_width" is the face's width \
            relative to the mean face (glasses temples open to it). Pose: camera frame x right, y down, z forward (mm); \
            pitch > 0 looks down, yaw > 0 turns to the image left, roll > 0 tilts clockwise.
            Camera: --camera FILE (JSON fx, fy, cx, cy, optional k1, k2, p1, p2, width, height) or \
            --fov DEG (horizontal) or --fov auto. Default: for a file, auto — a pre-scan of the first 30 \
            frames with a face estimates the field of view from the face's perspective when that is \
            conclusive, else from its size (the face taken to be 60 cm away), printed on stderr; for a \
            camera device \(Int(CameraIntrinsics.defaultHorizontalFOVDegrees))° (an unknown webcam).
            """
    )

    @Option(help: "Input: \(MediaFactory.inputHelp).")
    var input: String?

    @OptionGroup var badFrameOptions: BadFrameOptions

    @Option(help: "Camera device (/dev/videoN) instead of --input.")
    var device: String?

    @Option(help: "Camera capture size for --device (default \(CaptureSizeOption.defaultSize)).")
    var size: String?

    @Option(help: "Annotated output: \(MediaFactory.outputHelp).")
    var output: String?

    @Option(help: "Write one JSON line per frame to this file ('-' for standard output).")
    var json: String?

    @Option(help: "Overlay items on --output, comma-separated: landmarks, pose, box, pupils, fps (or none).")
    var overlay = "landmarks,pose,box,fps"

    @OptionGroup var cameraOptions: CameraOptions

    @Flag(name: .customLong("no-smoothing"), help: "Report raw per-frame landmarks and pose.")
    var noSmoothing = false

    @Option(name: .customLong("landmark-min-cutoff"), help: "Landmark One Euro still cutoff, Hz.")
    var landmarkMinCutoff = 1.5
    @Option(name: .customLong("landmark-beta"), help: "Landmark One Euro beta, per face size (inter-ocular) per second.")
    var landmarkBeta = 2.0
    @Option(name: .customLong("rotation-min-cutoff"), help: "Rotation One Euro still cutoff, Hz.")
    var rotationMinCutoff = 0.6
    @Option(name: .customLong("translation-min-cutoff"), help: "Lateral translation (direction to the face) One Euro still cutoff, Hz.")
    var translationMinCutoff = 0.5
    @Option(name: .customLong("depth-min-cutoff"), help: "Depth (ln z) One Euro still cutoff, Hz.")
    var depthMinCutoff = 0.2
    @Option(name: .customLong("pose-beta"), help: "Pose One Euro beta: per rad/s for rotation, per face size/s for translation and depth.")
    var poseBeta = 2.0

    @Option(name: .customLong("loss-confidence"), help: "Without a confidence model: drop a tracked face below this pose confidence (0-1).")
    var lossConfidence = 0.2

    @Option(name: .customLong("confidence-model"), help: "Tracking-loss classifier (default: Models/tracking-confidence.tcnf; 'none' for loss by pose confidence).")
    var confidenceModel: String?

    @Option(name: .customLong("max-faces"), help: "Most faces tracked at once.")
    var maxFaces = 4

    @Option(name: .customLong("redetect-every"), help: "Also look for new faces every N frames while there is room (0: only when none is tracked).")
    var redetectEvery = 0

    @Option(name: .customLong("landmark-model"), help: "Landmark model file (default: Models/landmarks.lmrk).")
    var landmarkModel: String?

    @Option(name: .customLong("detector-model"), help: "Face detector model file (default: Models/face-detector.fdet).")
    var detectorModel: String?

    @Option(name: .customLong("mean-face"), help: "Mean face file (default: Models/mean-face.json).")
    var meanFace: String?

    @Option(help: "Stop after this many frames.")
    var frames: Int?

    @Option(help: "JPEG quality of --output frames.")
    var quality = 85

    func validate() throws {
        if (input == nil) == (device == nil) { throw ValidationError("give exactly one of --input FILE or --device PATH") }
        try CaptureSizeOption.validate(size, appliesToCamera: device != nil)
        if output == nil && json == nil { throw ValidationError("give --output and/or --json") }
        for v in [landmarkMinCutoff, rotationMinCutoff, translationMinCutoff, depthMinCutoff] where !(v > 0 && v.isFinite) { throw ValidationError("cutoffs must be positive") }
        for v in [landmarkBeta, poseBeta] where !(v >= 0 && v.isFinite) { throw ValidationError("betas must be non-negative") }
        if !(0...1).contains(lossConfidence) { throw ValidationError("--loss-confidence must be in 0...1") }
        if maxFaces < 1 { throw ValidationError("--max-faces must be at least 1") }
        if redetectEvery < 0 { throw ValidationError("--redetect-every must be 0 or positive") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
        do { _ = try OverlayItems(list: overlay, allowed: TrackCommand.overlayItems) } catch let e as OverlayError {
            throw ValidationError(e.description)
        }
    }

    /// What `--overlay` can draw on `track`'s annotated frames.
    static let overlayItems = ["landmarks", "pose", "box", "pupils", "fps"]

    func run() throws {
        try reportingErrors("track") {
            try OutputSafety.refuseOverwritingInputs(
                outputs: [("--output", output), ("--json", json)],
                inputs: [input, cameraOptions.camera, landmarkModel, detectorModel, meanFace, confidenceModel])
            try track()
        }
    }

    private func modelPath(_ given: String?, _ name: String) throws -> String {
        if let given {
            guard FileManager.default.fileExists(atPath: given) else { throw CLIError("missing model file \(given)") }
            return given
        }
        return try ModelsDirectory.file(name).path
    }

    /// The pipeline's tracking-only mode, in colour: `track` formats what it gives.
    private func configuration() throws -> PipelineConfiguration {
        var config = FaceTrackerConfiguration()
        config.smoothing = !noSmoothing
        config.landmarkFilter = OneEuroParameters(minCutoffHz: landmarkMinCutoff, beta: landmarkBeta)
        config.poseTranslationFilter = OneEuroParameters(minCutoffHz: translationMinCutoff, beta: poseBeta)
        config.poseDepthFilter = OneEuroParameters(minCutoffHz: depthMinCutoff, beta: poseBeta)
        config.poseRotationFilter = OneEuroParameters(minCutoffHz: rotationMinCutoff, beta: poseBeta)
        config.lossConfidence = lossConfidence
        if confidenceModel != "none" {
            config.confidenceModel = try TrackingConfidenceModel(contentsOf: try modelPath(confidenceModel, "tracking-confidence.tcnf"))
        }
        config.maxFaces = maxFaces
        config.redetectInterval = redetectEvery

        var configuration = PipelineConfiguration()
        configuration.mode = .trackingOnly
        configuration.tracker = config
        configuration.decodesColour = true
        configuration.refinesPupils = true
        configuration.encodesJPEG = output != nil
        configuration.jpegQuality = quality
        configuration.overlay = try OverlayItems(list: overlay, allowed: TrackCommand.overlayItems)
        // --json: the scene light per face from its skin (LightEstimation), measured on every frame.
        configuration.lighting = json != nil ? .estimated : .fixed
        configuration.lightIntervalSeconds = 0
        // Files: the field of view from a pre-scan of a second opening, so the pose never jumps
        // mid-stream; a device with --fov auto is scanned on its own first frames.
        configuration.camera = try cameraOptions.choice(input: input)
        return configuration
    }

    private func track() throws {
        let configuration = try configuration()
        let face = try MeanFace(contentsOf: try modelPath(meanFace, "mean-face.json"))
        // Photos (one, or a folder of them) may show a face of any size, filling the frame or cut by it.
        let pipeline = try PipelineFactory.makePipeline(
            glasses: nil, face: face, configuration: configuration, stills: input.map { MediaFactory.isStills($0) } == true,
            models: try PipelineFactory.TrackingModels(landmarkModel: try modelPath(landmarkModel, "landmarks.lmrk"),
                                                       detectorModel: try modelPath(detectorModel, "face-detector.fdet")),
            defaultConfidenceModel: false)

        let source: FrameSource
        if let device {
            source = try MediaFactory.openCamera(device, size: size ?? CaptureSizeOption.defaultSize)
        } else {
            source = try MediaFactory.openSource(input!).source
        }
        defer { source.close() }
        if configuration.camera == .estimated {
            let prescan = try input.map { try MediaFactory.openSource($0).source } ?? source
            defer { if input != nil { prescan.close() } }
            FieldOfViewOption.report(try pipeline.estimateCamera(from: prescan))
        }

        var sink: FrameSink?
        let jsonHandle = try json.map(OutputFile.open)
        defer { try? jsonHandle?.close() }
        var readerClosed = false
        Interrupt.install()
        var index = 0, withFace = 0, sequence = 0
        var badFrames = BadFrames(source: input ?? device ?? "input", options: badFrameOptions)
        var trackingSeconds = 0.0, trackingCPUSeconds = 0.0
        var slowFrames = 0, slowCPUFrames = 0, slowDetectorFrames = 0
        var trackingModeCPU: [Double] = []
        while !Interrupt.requested {
            if let frames, index >= frames { break }
            guard let frame = try source.nextFrame() else { break }
            defer { sequence += 1 }
            guard let out = try badFrames.decode(frame: sequence, { try pipeline.process(frame) }) else { continue }
            if index == 0 {
                printError("track: \(out.width)x\(out.height), camera fx \(String(format: "%.1f", out.camera.fx)) (\(String(format: "%.1f", out.camera.horizontalFOVDegrees))° horizontal)")
                if configuration.tracker.confidenceModel != nil && !pipeline.usesConfidenceModel {
                    printError("warning: the tracking confidence model was trained for another landmark model (retrain it with 'lorgnette train tracking-confidence'); losing faces by pose confidence instead")
                }
            }
            let seconds = out.timings.track, cpu = out.trackThreadCPUSeconds
            trackingSeconds += seconds
            trackingCPUSeconds += cpu
            // Wall time ≥ 5 ms: either the detector ran, the thread itself was busy that long, or the
            // thread waited for a CPU (load from other processes).
            if !out.detectorRan { trackingModeCPU.append(cpu) }
            if seconds >= 0.005 {
                slowFrames += 1
                if out.detectorRan { slowDetectorFrames += 1 } else if cpu >= 0.005 { slowCPUFrames += 1 }
            }
            if !out.anchors.isEmpty { withFace += 1 }

            if let jsonHandle {
                let lights = LightTracker.byFace(out.lights)
                do { try jsonHandle.write(Self.jsonLine(frame: index, time: out.time, anchors: out.anchors, lights: lights) + "\n") } catch is OutputFile.ReaderClosed { index += 1; readerClosed = true; break }
            }
            if let output {
                if sink == nil { sink = try MediaFactory.makeSink(output, framesPerSecond: source.info.framesPerSecond ?? 30) }
                try sink!.write(jpeg: out.jpeg, timestampSeconds: out.time)
            }
            index += 1
        }
        try sink?.finish()
        try jsonHandle?.close()
        printIssues(source.issues)
        if readerClosed { printError("track: the reader of --json closed the pipe; stopped after \(index) frames") }
        let perFrame = index > 0 ? trackingSeconds / Double(index) * 1000 : 0
        let perFrameCPU = index > 0 ? trackingCPUSeconds / Double(index) * 1000 : 0
        printError(String(format: "track: %d frames, a face on %d (%.1f %%), detector ran on %d, %.2f ms/frame tracking wall, %.2f ms thread CPU (detector + landmarks + classifier + pose + filters)",
                          index, withFace, index > 0 ? 100 * Double(withFace) / Double(index) : 0, pipeline.detectorRuns, perFrame, perFrameCPU) + badFrames.summary)
        if !trackingModeCPU.isEmpty {
            let sorted = trackingModeCPU.sorted()
            printError(String(format: "track: tracking-mode frames (no detector): thread CPU median %.2f ms, p90 %.2f ms, max %.2f ms over %d frames",
                              sorted[sorted.count / 2] * 1000, sorted[sorted.count * 9 / 10] * 1000, sorted.last! * 1000, sorted.count))
        }
        printError("track: \(slowFrames) frames took >= 5 ms wall: \(slowDetectorFrames) ran the detector, \(slowCPUFrames) used >= 5 ms CPU, \(slowFrames - slowDetectorFrames - slowCPUFrames) waited for a CPU; loss by \(pipeline.usesConfidenceModel ? "the confidence classifier" : "pose confidence")")
        if Interrupt.requested { throw ExitCode(130) }
        if index == 0 { throw CLIError("no frames could be read from the input") }
    }


    private func printIssues(_ issues: [String]) {
        for issue in issues { printError("note: \(issue)") }
    }

    static func number(_ v: Double, _ digits: Int = 2) -> String {
        guard v.isFinite else { return "null" }
        let s = String(format: "%.\(digits)f", v)
        return s.hasPrefix("-") && Double(s) == 0 ? String(s.dropFirst()) : s
    }

    /// The exact JSON line of the issue, keys in its order.
    static func jsonLine(frame: Int, time: Double, anchors: [FaceAnchor], lights: [Int: LightEstimate] = [:]) -> String {
        let faces = anchors.map { a -> String in
            let points = a.landmarks.map { "[\(number(Double($0.x))), \(number(Double($0.y)))]" }.joined(separator: ", ")
            let pupils = a.pupils.map { "[\(number(Double($0.x))), \(number(Double($0.y)))]" }.joined(separator: ", ")
            let r = a.rotationDegrees, t = a.translationMM
            return "{\"id\": \(a.id), \"landmarks\": [\(points)], \"pupils\": [\(pupils)], "
                + "\"pose\": {\"rotation_deg\": [\(number(r.x, 3)), \(number(r.y, 3)), \(number(r.z, 3))], "
                + "\"translation_mm\": [\(number(t.x, 3)), \(number(t.y, 3)), \(number(t.z, 3))]}, "
                + "\"confidence\": \(number(a.faceProbability ?? a.confidence, 3)), \"head_width\": \(number(a.headWidthScale, 3)), \"state\": \"\(a.state.rawValue)\"" + lightJSON(lights[a.id]) + "}"
        }
        return "{\"frame\": \(frame), \"time\": \(number(time, 6)), \"faces\": [\(faces.joined(separator: ", "))]}"
    }

    /// `, "light": {...}` for a face with a light estimate (ARKit's fields; see `LightEstimate`), else "".
    static func lightJSON(_ e: LightEstimate?) -> String {
        guard let e else { return "" }
        let sh = e.sphericalHarmonicsCoefficients.map { number(Double($0), 4) }.joined(separator: ", ")
        let d = e.primaryLightDirection
        return ", \"light\": {\"sh\": [\(sh)], \"direction\": [\(number(Double(d.x), 4)), \(number(Double(d.y), 4)), \(number(Double(d.z), 4))], "
            + "\"intensity\": \(number(Double(e.primaryLightIntensity), 1)), \"ambient_intensity\": \(number(Double(e.ambientIntensity), 1)), "
            + "\"color_temperature_k\": \(number(Double(e.ambientColorTemperature), 0))}"
    }
}
