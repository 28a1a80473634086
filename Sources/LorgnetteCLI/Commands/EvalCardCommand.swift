import ArgumentParser
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import JPEGCodec
import Landmarks
import Media
import MetricsEvaluation
import Pipeline
import PoseEstimation

/// `lorgnette eval card`: an ID-1 card composited into a real video where the tracked face holds it,
/// then found again by the card detector (issue 24 item 3).
struct EvalCardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Composite an ID-1 card into a real video at the tracked forehead; measure the card detector's corners.",
        discussion: """
            Each frame: the face is tracked (smoothed, as the try-on follows it) and an ID-1 card \
            (85.60 x 53.98 mm, rounded corners) is drawn at the mean face's forehead (or under the nose) \
            in that pose, tipped by --tilt about the face's x axis, with anti-aliased edges, motion blur \
            from the pose's change since the last frame, brightness from the forehead's own light with a \
            gradient across the card, sensor noise, and JPEG compression (--output: the composited clip, \
            for `lorgnette measure --scale card`). The composited frame is then tracked again as \
            `measure` tracks (unsmoothed) and the card detector runs on it. Reported over the frames \
            where the card lies fully inside the frame: the share whose four detected corners are all \
            within 1 px of the drawn ones (the bar: at least 95 %), the corner error's median and 95th \
            percentile, how many cards were rejected as tilted, and the detector's CPU time per frame. \
            The detector reads the frame in colour, as `measure --scale card` hands it (--edges luma: \
            the luma alone, for comparison).
            """
    )

    @Option(help: "A video (MJPEG, AVI).")
    var input: String
    @Option(help: "Write the composited clip here (MJPEG).")
    var output: String?
    @Option(help: "forehead or under-nose.")
    var placement = "forehead"
    @Option(help: "Tip the card about the face's x axis by this many degrees (a card the detector must reject beyond 10°).")
    var tilt = 0.0
    @Option(help: "JPEG quality of the composited frames.")
    var quality = 85
    @Option(help: "Sensor noise added to the composited frames (grey levels, SD).")
    var noise = 2.0
    @Option(help: "Exposure as a fraction of the frame interval (motion blur; 0: none).")
    var shutter = 0.5
    @Option(help: ArgumentHelp(stringLiteral: FieldOfViewOption.help))
    var fov = "auto"
    @Option(help: "Seed of the card's light gradient and the noise.")
    var seed: UInt64 = 3
    @Option(help: "What the card detector reads: colour (as measure does) or luma (the frame's grey only).")
    var edges = "colour"
    @Option(help: "Write one line per frame here (tab-separated: frame, visible, detected, corner error px, failure, yaw, pitch, drawn and found corners TL;TR;BR;BL as x,y px).")
    var tsv: String?

    func run() throws {
        guard let placement = CardObservation.Placement(rawValue: placement) else { throw ValidationError("--placement: forehead or under-nose") }
        guard edges == "colour" || edges == "luma" else { throw ValidationError("--edges: colour or luma") }
        let face = try MeanFace(contentsOf: ModelsDirectory.file("mean-face.json").path)
        let detector = HOGFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: ModelsDirectory.file("face-detector.fdet").path))
        let cascade = try LandmarkCascade(contentsOf: ModelsDirectory.file("landmarks.lmrk").path)
        var confidence: TrackingConfidenceModel?
        if let url = try? ModelsDirectory.file("tracking-confidence.tcnf"), let m = try? TrackingConfidenceModel(contentsOf: url.path), m.matches(cascade) {
            confidence = m
        }
        var fovDegrees: Double?
        if let d = Double(fov) { fovDegrees = d } else {
            let (scanSource, _) = try MediaFactory.openSource(input)
            defer { scanSource.close() }
            let estimate = try FieldOfViewScan(detector: detector, landmarkModel: cascade, face: face).scan(scanSource, decoder: TurboJPEGDecoder(), maxFrames: 150)
            FieldOfViewOption.report(estimate)
            fovDegrees = estimate?.horizontalFOVDegrees
        }
        let (source, _) = try MediaFactory.openSource(input)
        defer { source.close() }
        let sink = try output.map { try MJPEGFileSink(path: $0) }
        let decoder = TurboJPEGDecoder(), roundTrip = JPEGRoundTrip(encoder: TurboJPEGEncoder(), decoder: decoder), quality = self.quality
        var configuration = FaceTrackerConfiguration()
        configuration.confidenceModel = confidence
        let footage = CardFootage(composite: CardComposite(placement: placement, tiltDegrees: tilt), faceDetector: detector, landmarkModel: cascade,
                                  face: face, configuration: configuration, seed: seed,
                                  encode: { roundTrip.compress($0, quality: quality) },
                                  decode: { roundTrip.luma($0) },
                                  decodeColour: edges == "colour" ? { try? decoder.decodeRGB($0, scale: .full) } : nil)
        footage.shutter = shutter
        footage.noiseSD = noise
        var rows = ["frame\tvisible\tdetected\tcorner_error_px\tfailure\tyaw\tpitch\ttruth_corners\tfound_corners"]
        var visible = 0, detectedVisible = 0, within1 = 0, tilted = 0, drawn = 0, frames = 0, found = 0
        // The same over the frames `measure` would look at (head inside its default angle gate).
        let gate = FrameGate()
        var gateVisible = 0, gateWithin1 = 0, gateTilted = 0
        var errors: [Double] = []
        var detectorSeconds: [Double] = []
        while let frame = try source.nextFrame() {
            let rgb = try PayloadDecoding.colour(of: frame.payload, decoder: decoder)
            let camera = fovDegrees.map { CameraIntrinsics(horizontalFOVDegrees: $0, width: rgb.width, height: rgb.height) }
                ?? .defaultWebcam(width: rgb.width, height: rgb.height)
            let r = footage.process(rgb, camera: camera, timestampSeconds: frame.timestampSeconds)
            try sink?.write(jpeg: r.jpeg, timestampSeconds: frame.timestampSeconds)
            if r.truth != nil { drawn += 1 }
            if let t = r.detectorSeconds { detectorSeconds.append(t) }
            var failure = r.detection == nil ? "no face" : ""
            switch r.detection {
            case .success?: found += 1
            case .failure(let f)?:
                failure = f.description
                if case .tilted = f { tilted += 1 }
            case nil: break
            }
            let error = r.cornerError
            let inGate = r.viewAngles.map { abs($0.yaw) < gate.maxYawDegrees && abs($0.pitch) < gate.maxPitchDegrees } ?? false
            if inGate, case .failure(.tilted)? = r.detection { gateTilted += 1 }
            if r.visible && inGate {
                gateVisible += 1
                if let error, error <= 1 { gateWithin1 += 1 }
            }
            if r.visible {
                visible += 1
                if let error {
                    detectedVisible += 1
                    errors.append(error)
                    if error <= 1 { within1 += 1 }
                }
            }
            // Corners TL, TR, BR, BL as x,y;x,y;… (px): which side of a missed frame is off.
            func corners(_ c: [SIMD2<Double>]?) -> String { c.map { $0.map { String(format: "%.2f,%.2f", $0.x, $0.y) }.joined(separator: ";") } ?? "" }
            var foundCorners: [SIMD2<Double>]?
            if case .success(let card)? = r.detection { foundCorners = card.corners }
            rows.append("\(frames)\t\(r.visible ? 1 : 0)\t\(error != nil ? 1 : 0)\t\(error.map { String(format: "%.3f", $0) } ?? "")\t\(failure)\t\(r.viewAngles.map { String(format: "%.1f\t%.1f", $0.yaw, $0.pitch) } ?? "\t")\t\(corners(r.truth))\t\(corners(foundCorners))")
            frames += 1
        }
        try sink?.finish()
        errors.sort()
        func pct(_ p: Double) -> Double { errors.isEmpty ? .nan : errors[min(errors.count - 1, Int(Double(errors.count - 1) * p + 0.5))] }
        print(String(format: "%@: %d frames, card drawn on %d, fully visible on %d; card found on %d of those (%d frames in all), all four corners within 1 px on %d = %.1f %% of the visible frames; corner error (worst of four) median %.2f px, p95 %.2f px; rejected as tilted: %d frames",
                     input, frames, drawn, visible, detectedVisible, found, within1, visible > 0 ? 100 * Double(within1) / Double(visible) : .nan,
                     pct(0.5), pct(0.95), tilted))
        print(String(format: "  inside measure's angle gate (|yaw| < %.0f°, |pitch| < %.0f°): fully visible on %d frames, all four corners within 1 px on %d = %.1f %%; rejected as tilted: %d",
                     gate.maxYawDegrees, gate.maxPitchDegrees, gateVisible, gateWithin1, gateVisible > 0 ? 100 * Double(gateWithin1) / Double(gateVisible) : .nan, gateTilted))
        detectorSeconds.sort()
        if !detectorSeconds.isEmpty {
            print("  card detector (\(edges)" + String(format: "%@): %.2f ms thread CPU per frame (mean over %d frames), median %.2f ms",
                         edges == "colour" ? ", with its colour decode" : "", 1000 * detectorSeconds.reduce(0, +) / Double(detectorSeconds.count), detectorSeconds.count,
                         1000 * detectorSeconds[detectorSeconds.count / 2]))
        }
        if let tsv { try (rows.joined(separator: "\n") + "\n").write(toFile: tsv, atomically: true, encoding: .utf8) }
    }
}
