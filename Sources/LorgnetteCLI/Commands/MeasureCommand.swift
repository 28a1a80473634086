import ArgumentParser
import Capture
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Inputs
import JPEGCodec
import Landmarks
import Media
import PNGCodec
import Pipeline
import PoseEstimation

/// `lorgnette measure`: pupillary distance, temple width and a frame size in millimetres, from a
/// camera, videos or photos, with the scale method and an honest ± band.
struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure pupillary distance (binocular, monocular, near and far), temple width and a frame size in mm.",
        discussion: """
            Every frame: the face is tracked (unsmoothed; the face box, the landmarks and the pupils are found in the frame and in its \
            mirror image and averaged, so a mirrored video measures the same PD with the mono PDs swapped), both pupils are refined inside the eyes \
            (coarse iris circle, then the iris boundary), and the frame is kept only when the head faces \
            the camera (|yaw| < 15°, |pitch| < 10°: the pupils are measured in the head's own frame, so a turned head \
            measures as a frontal one; outside the limits standard error says which way to turn), both eyes are open (at least half of each iris's height between the lids) and sharp with irises of the same size, and the face is large enough. \
            Kept frames are measured with the chosen scale and aggregated robustly (median/MAD outlier \
            rejection, mean, SD); videos and cameras need at least --min-frames kept frames; of several photos \
            one that passes gives a result, and each photo not used is named on standard error with the reason.
            Scales: iris (visible iris 11.7 ± 0.4 mm, estimated once over the kept frames: ± 3.4 % for one person, whatever the frame count), \
            card (an ID-1 bank card, 85.60 × 53.98 mm, held flat against the forehead or under the nose), \
            camera (the PnP depth of the mean face with --camera intrinsics: head size ± 4 %).
            Far PD converts the near PD measured at the camera distance with the eyes turning about \
            their rotation centres (10.45 mm behind the pupil). Mono PDs are far values, pupil to the \
            nose-bridge midline; right is the subject's right eye (image left).
            With --json, one object:
            {"method": "iris|card|camera", "frames_used": n, "pd_mm": {"value": v, "sd": s, "ci95": [lo, hi]}, \
            "pd_far_mm": {...}, "mono_pd_mm": {"left": {...}, "right": {...}}, "temple_width_mm": {...}, \
            "face_width_mm": {...}, "camera_distance_mm": {...}, "frame_size": {"code": "52□18-140", "label": "M"}, \
            "eyeglasses": true|false|null}
            Eyeglasses: every frame with a face is judged by the eyeglasses classifier (Models/eyeglasses.eyeg); \
            when most frames show glasses, standard error says so and "eyeglasses" is true. Through glasses \
            the iris scale is refused (the lenses magnify or shrink the eyes: about 3.5 % per 3 dioptres); \
            card and camera scales still measure, with the warning.
            Exits non-zero with one line saying why when no face is found, too few frames pass, or no \
            card is found.
            """
    )

    @Option(help: "Camera device (/dev/videoN): live measurement with guidance on standard error.")
    var device: String?

    @Option(parsing: .upToNextOption, help: "Videos or photos: \(MediaFactory.inputHelp).")
    var input: [String] = []

    @OptionGroup var badFrameOptions: BadFrameOptions

    @Option(help: "Metric scale: iris, card or camera.")
    var scale = "iris"

    @OptionGroup var cameraOptions: CameraOptions

    @Flag(name: .customLong("no-eyeglasses-check"), help: "Do not look for eyeglasses on the face (a bare face wrongly taken for one wearing glasses; \"eyeglasses\" is then null).")
    var noEyeglassesCheck = false

    @Option(name: .customLong("eyeglasses-model"), help: "Eyeglasses classifier (default: Models/eyeglasses.eyeg).")
    var eyeglassesModel: String?

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    @Option(help: "Camera capture size for --device (default \(CaptureSizeOption.defaultSize)).")
    var size: String?

    @Option(name: .customLong("min-frames"), help: "Kept frames needed from videos and cameras.")
    var minFrames = 30

    @Option(name: .customLong("max-yaw"), help: "Largest |yaw| of a kept frame (degrees, against the line of sight; the pupils are measured in the head's frame).")
    var maxYaw = 15.0

    @Option(name: .customLong("max-pitch"), help: "Largest |pitch| of a kept frame (degrees, against the line of sight).")
    var maxPitch = 10.0

    @Option(name: .customLong("max-angle"), help: ArgumentHelp("Sets both --max-yaw and --max-pitch.", visibility: .hidden))
    var maxAngle: Double?

    @Option(help: "Give up on --device after this many seconds.")
    var timeout = 60.0

    @Option(help: "Read at most this many frames per input.")
    var frames: Int?

    @Option(name: .customLong("mean-face"), help: "Mean face file (default: Models/mean-face.json).")
    var meanFace: String?

    @Option(name: .customLong("frames-json"), help: ArgumentHelp("Write one JSON line per frame to this file: the refined pupils (image-left first, pixel centres), whether each came from the iris boundary, iris diameters and eye widths (corner to corner, px), the limbus's mean step (grey levels/px) and fit RMS (px), the lid opening (px), yaw and pitch against the line of sight (degrees), whether the frame was accepted, why not, and its near/far PD (mm).", valueName: "file"))
    var framesJSON: String?

    @Flag(name: .customLong("pose-variants"), help: ArgumentHelp("Diagnostics: with --frames-json, also each frame's yaw and pitch (degrees, against the line of sight) from PnP fits without the jaw contour (\"pose_no_jaw\") and with it at full weight (\"pose_full_jaw\"), and the tracked pose's yaw and pitch against the optical axis (\"pose_optical_axis\").", visibility: .hidden))
    var poseVariants = false

    @Flag(name: .customLong("no-mirror-averaging"), help: ArgumentHelp("Diagnostics: fit the landmarks and refine the pupils on each frame only, not also on its mirror image (the default averages the two, so a mirrored video measures the same PD).", visibility: .hidden))
    var noMirrorAveraging = false

    @Option(name: .customLong("dump-eyes"), help: ArgumentHelp("Diagnostics: write a magnified PNG of both eyes of every frame with the pupil refiner's edge points and circle into this folder.", visibility: .hidden))
    var dumpEyes: String?

    func validate() throws {
        if (device == nil) == input.isEmpty { throw ValidationError("give exactly one of --device PATH or --input FILE...") }
        try CaptureSizeOption.validate(size, appliesToCamera: device != nil)
        if ScaleMethod(rawValue: scale) == nil { throw ValidationError("--scale must be iris, card or camera") }
        if minFrames < 1 { throw ValidationError("--min-frames must be at least 1") }
        for (name, value) in [("--max-angle", maxAngle ?? 10), ("--max-yaw", maxYaw), ("--max-pitch", maxPitch)] where !(value > 0 && value <= 45) {
            throw ValidationError("\(name) must be in (0, 45] degrees")
        }
        if !(timeout > 0) { throw ValidationError("--timeout must be positive") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
    }

    func run() throws {
        try reportingErrors("measure") {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--frames-json", framesJSON), ("--dump-eyes", dumpEyes)],
                                                     inputs: input + [cameraOptions.camera, meanFace])
            try measure()
        }
    }

    private final class Context {
        /// The models, read once: every photo and recording gets a pipeline of its own (the tracker
        /// restarts), all feeding the one session.
        let models: PipelineFactory.TrackingModels
        let face: MeanFace
        let session: MeasurementSession
        /// Wall time in the session (pupil refinement, gate, scale, metrics) and frames timed.
        var metricsSeconds = 0.0
        var metricsFrames = 0
        var frameIndex = 0
        let diagnosticRefiner = PupilRefiner()
        /// PnP variants for --pose-variants: the jaw contour left out, and at full weight.
        let noJaw: FacePoseEstimator
        let fullJaw: FacePoseEstimator
        var frameLines: [String] = []
        /// The field of view estimated for the current recording (`--fov auto`).
        var estimatedFOV: Double?
        /// Photos given, readable or not.
        var photosTried = 0
        /// Frames outside the angle limits, by the way the head was turned: the subject's left/right,
        /// up/down (a video's summary tells which way to turn).
        var turnedLeft: [Double] = [], turnedRight: [Double] = [], tiltedUp: [Double] = [], tiltedDown: [Double] = []
        init(models: PipelineFactory.TrackingModels, face: MeanFace, session: MeasurementSession) {
            self.models = models; self.face = face; self.session = session
            noJaw = FacePoseEstimator(face: face, jawWeight: 0)
            fullJaw = FacePoseEstimator(face: face, jawWeight: 1)
        }
    }

    private func measure() throws {
        let method = ScaleMethod(rawValue: scale)!
        let face = try MeanFace(contentsOf: meanFace ?? ModelsDirectory.file("mean-face.json").path)
        let context = Context(models: try PipelineFactory.TrackingModels(), face: face,
                              session: MeasurementSession(face: face, camera: .defaultWebcam(width: 640, height: 480), method: method))
        if !noEyeglassesCheck {
            context.session.eyeglasses = EyeglassesDetector(model: try EyeglassesModel(contentsOf: eyeglassesModel ?? ModelsDirectory.file("eyeglasses.eyeg").path))
        }
        context.session.mirrorAveraged = !noMirrorAveraging
        context.session.gate.maxYawDegrees = maxAngle ?? maxYaw
        context.session.gate.maxPitchDegrees = maxAngle ?? maxPitch
        var needFrames = 1
        if let device {
            needFrames = minFrames
            try measureDevice(device, context)
        } else {
            for path in input {
                let opened: (FrameSource, InputKind)
                do {
                    opened = try MediaFactory.openSource(path)
                } catch where input.count > 1 {
                    // One unreadable input among several: say why and go on with the others.
                    printError("measure: \(path): not used (\(error))")
                    context.photosTried += 1
                    continue
                }
                let (source, kind) = opened
                defer { source.close() }
                if kind.isPhoto {
                    context.photosTried += 1
                    try measureStill(source, context, name: path)
                } else {
                    needFrames = minFrames
                    let estimates = !kind.isPhoto && cameraOptions.estimatesForRecordings && FieldOfViewOption.isRecording(path)
                    let pipeline = try self.pipeline(context, stills: false, estimatesCamera: estimates)
                    if estimates {
                        // Recordings: the field of view from the face in the first frames (as track and live
                        // do), unless --camera or a --fov in degrees says otherwise. The pose gate depends on it.
                        let (scanSource, _) = try MediaFactory.openSource(path)
                        defer { scanSource.close() }
                        let estimate = try pipeline.estimateCamera(from: scanSource)
                        FieldOfViewOption.report(estimate)
                        context.estimatedFOV = estimate?.horizontalFOVDegrees
                    }
                    try measureVideo(source, pipeline, name: path, context)
                }
            }
        }
        try finish(context, needFrames: needFrames, method: method)
    }

    /// The pipeline's metrics mode for one photo or recording, feeding the run's session: unsmoothed,
    /// one face, the camera from --camera, the estimated or given field of view, or the webcam default.
    private func pipeline(_ c: Context, stills: Bool, estimatesCamera: Bool = false) throws -> FramePipeline {
        var configuration = PipelineConfiguration()
        configuration.mode = .metrics
        configuration.tracker.smoothing = false
        configuration.tracker.maxFaces = 1
        // Test-time mirror averaging (landmarks, hence the pose; the pupils in the session): the PD of a
        // mirrored video is the same, mono PDs swapped (videoretalking_face1: 66.71 against 66.37 mm
        // without it). Measurement affords the second fit; the try-on's tracking does not use it.
        configuration.tracker.mirrorAveraged = !noMirrorAveraging
        configuration.keepsImage = dumpEyes != nil
        if let camera = cameraOptions.camera {
            configuration.camera = .calibrationFile(camera)
        } else if estimatesCamera {
            configuration.camera = .estimated
        } else if let degrees = c.estimatedFOV ?? cameraOptions.degrees {
            configuration.camera = .horizontalFOV(degrees)
        }
        // The "still a face?" classifier, as live and track use it: without it a fit that slid onto the
        // mouth while the eyes were closed (d18, frames 122-175) was kept as the face.
        let pipeline = try PipelineFactory.makePipeline(glasses: nil, face: c.face, configuration: configuration, stills: stills, models: c.models)
        pipeline.measurementSession = c.session
        return pipeline
    }

    /// One frame through the pipeline and the session: the largest tracked face's result, if any.
    @discardableResult
    private func step(_ frame: Frame, _ pipeline: FramePipeline, _ c: Context) throws -> FrameResult? {
        let out = try pipeline.process(frame)
        return record(out, c)
    }

    /// What a processed frame adds to the run's diagnostics (--frames-json, --dump-eyes, timing).
    @discardableResult
    private func record(_ out: PipelineOutput, _ c: Context) -> FrameResult? {
        defer { c.frameIndex += 1 }
        guard let result = out.frameResult, let a = out.anchors.max(by: { $0.box.width < $1.box.width }) else {
            if framesJSON != nil { c.frameLines.append("{\"frame\": \(c.frameIndex), \"face\": false}") }
            return nil
        }
        c.metricsSeconds += out.timings.metrics
        c.metricsFrames += 1
        if let dumpEyes, let gray = out.gray { dump(gray, landmarks: a.landmarks, result: result, c, to: dumpEyes) }
        if framesJSON != nil {
            var line = frameLine(result, landmarks: a.landmarks, angles: FrameGate.viewAngles(cameraFromFace: a.cameraFromFace), index: c.frameIndex)
            if poseVariants {
                func angles(_ e: FacePoseEstimator) -> String {
                    guard let p = e.estimate(landmarks: a.landmarks, camera: out.camera, previous: a.cameraFromFace) else { return "null" }
                    let v = FrameGate.viewAngles(cameraFromFace: p.cameraFromModel)
                    return String(format: "[%.3f, %.3f]", v.yaw, v.pitch)
                }
                let axis = EulerAngles(a.cameraFromFace.rotation).degrees
                line.removeLast()
                line += ", \"pose_no_jaw\": \(angles(c.noJaw)), \"pose_full_jaw\": \(angles(c.fullJaw)), "
                    + String(format: "\"pose_optical_axis\": [%.3f, %.3f]}", axis.y, axis.x)
            }
            c.frameLines.append(line)
        }
        return result
    }

    private func frameLine(_ r: FrameResult, landmarks: [SIMD2<Float>], angles: (yaw: Double, pitch: Double), index: Int) -> String {
        func n(_ v: Double?) -> String { v.map { $0.isFinite ? String(format: "%.3f", $0) : "null" } ?? "null" }
        let pupils = r.eyes.map { "[\(n(Double($0.pupil.x))), \(n(Double($0.pupil.y)))]" }.joined(separator: ", ")
        let refined = r.eyes.map { $0.source == .limbus ? "true" : "false" }.joined(separator: ", ")
        let iris = r.eyes.map { n($0.irisDiameterPx) }.joined(separator: ", ")
        let steps = r.eyes.map { n($0.limbusContrast) }.joined(separator: ", ")
        let rms = r.eyes.map { n($0.limbusResidualPx) }.joined(separator: ", ")
        let opening = r.eyes.map { n(Double($0.lidOpeningPx)) }.joined(separator: ", ")
        let widths = EyeContour.pair(from: landmarks).map { n(Double($0.width)) }.joined(separator: ", ")
        let why = r.rejections.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        return "{\"frame\": \(index), \"face\": true, \"pupils\": [\(pupils)], \"limbus\": [\(refined)], \"iris_px\": [\(iris)], \"eye_width_px\": [\(widths)], \"limbus_step\": [\(steps)], \"limbus_rms_px\": [\(rms)], \"lid_opening_px\": [\(opening)], \"yaw_deg\": \(n(angles.yaw)), \"pitch_deg\": \(n(angles.pitch)), "
            + "\"accepted\": \(r.accepted), \"rejections\": [\(why)], \"pd_near_mm\": \(n(r.measurement?.pdNear)), \"pd_far_mm\": \(n(r.measurement?.pdFar))}"
    }

    /// Both eyes' diagnostic pictures side by side, named by frame and outcome.
    private func dump(_ image: GrayImage, landmarks: [SIMD2<Float>], result: FrameResult, _ c: Context, to folder: String) {
        let eyes = EyeContour.pair(from: landmarks)
        let pictures = eyes.map { EyeDiagnosticImage.render(image, eye: $0, refiner: c.diagnosticRefiner) }
        let h = pictures.map(\.height).max() ?? 0, w = pictures.map(\.width).reduce(0, +) + 8
        var out = RGBImage(width: w, height: h, fill: (60, 0, 60))
        var x0 = 0
        for p in pictures {
            for y in 0..<p.height {
                let src = y * p.width * 3, dst = (y * w + x0) * 3
                out.pixels.replaceSubrange(dst..<(dst + p.width * 3), with: p.pixels[src..<(src + p.width * 3)])
            }
            x0 += p.width + 8
        }
        let status = result.accepted ? "ok" : (result.rejections.contains(.eyesClosed) ? "iris" : "gate")
        let ears = result.eyes.map { String(format: "%.2f", $0.aspectRatio) }.joined(separator: "-")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? ImageFiles.write(out, to: "\(folder)/" + String(format: "%04d", c.frameIndex) + "_\(status)_ear\(ears).png")
    }

    private func measureStill(_ source: FrameSource, _ c: Context, name: String) throws {
        let pipeline = try self.pipeline(c, stills: true)
        c.session.resetContinuity()
        let before = c.session.acceptedCount
        let r: FrameResult?
        do {
            guard let frame = try source.nextFrame() else { throw CLIError("no readable image") }
            r = try step(frame, pipeline, c)
        } catch where input.count > 1 {
            printError("measure: \(name): not used (\(error))")
            return
        }
        if c.session.acceptedCount == before {
            printError("measure: \(name): not used (\(r.map { reason($0, c) } ?? "no face found"))")
        } else {
            printError("measure: \(name): used")
        }
    }

    /// Why a frame was not used, one line; a turned or tilted head says which way to turn.
    private func reason(_ r: FrameResult, _ c: Context) -> String {
        var parts = r.rejections.filter { $0 != .turned && $0 != .tilted }.map(\.rawValue)
        if let g = c.session.gate.guidance(yawDegrees: r.yawDegrees, pitchDegrees: r.pitchDegrees) { parts.insert(g, at: 0) }
        if let f = r.cardFailure { parts.append(f.description) }
        return parts.isEmpty ? "not measurable" : parts.joined(separator: "; ")
    }

    /// Notes which way a head outside the angle limits was turned (for the summary).
    private func noteAngles(_ r: FrameResult, _ c: Context) {
        let gate = c.session.gate
        if !(abs(r.yawDegrees) < gate.maxYawDegrees) {
            if r.yawDegrees < 0 { c.turnedLeft.append(-r.yawDegrees) } else { c.turnedRight.append(r.yawDegrees) }
        }
        if !(abs(r.pitchDegrees) < gate.maxPitchDegrees) {
            if r.pitchDegrees > 0 { c.tiltedUp.append(r.pitchDegrees) } else { c.tiltedDown.append(-r.pitchDegrees) }
        }
    }

    /// One stderr line per way the head was outside the limits on a video: how often, how far, and
    /// which way to turn.
    private func angleSummary(_ c: Context) -> [String] {
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let gate = c.session.gate
        var lines: [String] = []
        for (values, what, advice, limit) in [(c.turnedLeft, "turned to the subject's left", "turn towards your right", gate.maxYawDegrees),
                                              (c.turnedRight, "turned to the subject's right", "turn towards your left", gate.maxYawDegrees),
                                              (c.tiltedUp, "tilted up", "lower your chin", gate.maxPitchDegrees),
                                              (c.tiltedDown, "tilted down", "raise your chin", gate.maxPitchDegrees)] where !values.isEmpty {
            lines.append(String(format: "measure: head %@ beyond %.0f° on %d frame%@ (median %.0f°): %@", what, limit, values.count,
                                values.count == 1 ? "" : "s", median(values), advice))
        }
        return lines
    }

    private func measureVideo(_ source: FrameSource, _ pipeline: FramePipeline, name: String, _ c: Context) throws {
        c.session.resetContinuity()
        var index = 0
        var badFrames = BadFrames(source: name, options: badFrameOptions)
        defer { if badFrames.skipped > 0 { printError("measure: \(name): \(badFrames.skipped) undecodable frames skipped") } }
        while frames == nil || index < frames! {
            guard let frame = try source.nextFrame() else { break }
            guard let out = try badFrames.decode(frame: frame.sequence, { try pipeline.process(frame) }) else { continue }
            if let r = record(out, c) { noteAngles(r, c) }
            index += 1
        }
        if index == 0 { throw CLIError("no frames could be read from the input") }
    }

    private func measureDevice(_ path: String, _ c: Context) throws {
        let source = try MediaFactory.openCamera(path, size: size ?? CaptureSizeOption.defaultSize)
        defer { source.close() }
        let pipeline = try self.pipeline(c, stills: false)
        Interrupt.install()
        printError("measure: look straight at the camera, eyes open, and hold still" + (c.session.method == .card ? "; hold a bank card flat against your forehead" : ""))
        let start = Date()
        var lastHint = Date.distantPast
        let target = max(minFrames, 45)
        var badFrames = BadFrames(source: path, options: badFrameOptions)
        while !Interrupt.requested, c.session.acceptedCount < target, Date().timeIntervalSince(start) < timeout {
            guard let frame = try source.nextFrame() else { break }
            guard let out = try badFrames.decode(frame: frame.sequence, { try pipeline.process(frame) }) else { continue }
            let r = record(out, c)
            if Date().timeIntervalSince(lastHint) > 1 {
                lastHint = Date()
                let hint: String
                if let r {
                    if let g = c.session.gate.guidance(yawDegrees: r.yawDegrees, pitchDegrees: r.pitchDegrees) { hint = g }
                    else if let first = r.rejections.first { hint = first.rawValue }
                    else if let f = r.cardFailure { hint = "\(f.description): bring the card" }
                    else { hint = "hold still… \(c.session.acceptedCount)/\(target) frames" }
                } else { hint = "no face: look at the camera" }
                printError("measure: \(hint)")
            }
        }
        if Interrupt.requested { printError("measure: interrupted") }
    }

    private func finish(_ c: Context, needFrames: Int, method: ScaleMethod) throws {
        if let framesJSON {
            let text = c.frameLines.joined(separator: "\n") + (c.frameLines.isEmpty ? "" : "\n")
            try OutputFile.write(text, to: framesJSON)
        }
        let s = c.session
        // First: glasses explain the failures below (lenses hiding the irises) as much as a PD.
        if let glasses = s.eyeglasses, glasses.wearsGlasses == true {
            printError("measure: eyeglasses detected on the face (\(glasses.framesWithGlasses) of \(glasses.framesJudged) frames); their lenses magnify or shrink the eyes behind them: take them off for the PD")
            if method == .iris {
                // Refused rather than widened: a ±3 D lens at 12 mm changes the iris's image, and the PD
                // scaled by it, by about ∓3.5 % (2.2 mm), with a sign the picture cannot tell (Models/README.md).
                throw CLIError("eyeglasses on the face: the iris scale is refused through lenses (a 3-dioptre lens moves the PD by about 2 mm either way); take them off, or use --scale card or --scale camera (or --no-eyeglasses-check if there are none)")
            }
        }
        if c.photosTried > 1 && input.count == c.photosTried && s.acceptedCount == 0 {
            throw CLIError("none of the \(c.photosTried) photos passed (reasons above)")
        }
        if s.framesWithFace == 0 { throw CLIError("no face found in \(s.framesSeen) frame\(s.framesSeen == 1 ? "" : "s")") }
        if method == .card && (s.acceptedCount == 0) && (s.cardNotFound > 0 || s.cardTilted > 0) {
            if s.cardTilted > s.cardNotFound {
                throw CLIError("card tilted away from the eye plane on all \(s.cardTilted) good frames (hold it flat against the forehead)")
            }
            throw CLIError("no card found on \(s.cardNotFound) good frame\(s.cardNotFound == 1 ? "" : "s") (hold an ID-1 card flat against the forehead or under the nose)")
        }
        let rejected = s.rejectionCounts.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) ×\($0.value)" }.joined(separator: ", ")
        for line in angleSummary(c) { printError(line) }
        guard s.acceptedCount >= needFrames, let report = s.report() else {
            throw CLIError("too few good frames: \(s.acceptedCount) of \(s.framesSeen) (need \(needFrames)); a face on \(s.framesWithFace)"
                           + (rejected.isEmpty ? "" : "; rejected: \(rejected)")
                           + (s.cardNotFound + s.cardTilted > 0 ? "; no usable card on \(s.cardNotFound + s.cardTilted)" : ""))
        }
        printError(String(format: "measure: %.3f ms/frame in pupil refinement + gate + scale + metrics (%d frames)",
                          c.metricsFrames > 0 ? c.metricsSeconds / Double(c.metricsFrames) * 1000 : 0, c.metricsFrames))
        printError("measure: \(report.framesUsed) of \(s.framesSeen) frames used (a face on \(s.framesWithFace)\(rejected.isEmpty ? "" : "; rejected: " + rejected))")
        print(json ? report.json : report.table)
    }
}
