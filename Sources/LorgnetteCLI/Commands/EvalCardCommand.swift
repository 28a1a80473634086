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
            percentile, and how many cards were rejected as tilted.
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
    @Option(help: "Write one line per frame here (tab-separated: frame, visible, detected, corner error px, failure).")
    var tsv: String?

    func run() throws {
        guard let placement = CardObservation.Placement(rawValue: placement) else { throw ValidationError("--placement: forehead or under-nose") }
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
            fovDegrees = try FieldOfViewOption.estimate(with: FieldOfViewScan(detector: detector, landmarkModel: cascade, face: face), from: scanSource)?.horizontalFOVDegrees
        }
        let (source, _) = try MediaFactory.openSource(input)
        defer { source.close() }
        let sink = try output.map { try MJPEGFileSink(path: $0) }
        let decoder = TurboJPEGDecoder(), encoder = TurboJPEGEncoder()
        var composite = CardComposite(placement: placement, tiltDegrees: tilt)
        var rng = SplitMix64Stream(seed: seed)
        let gradient = SIMD2(rng.uniform(-0.15, 0.15), rng.uniform(-0.1, 0.1))
        composite.albedo = [0.80, 0.85, 0.92]
        var place: FaceTracker?, find: FaceTracker?
        var previous: RigidTransform?
        var rows = ["frame\tvisible\tdetected\tcorner_error_px\tfailure"]
        var visible = 0, detectedVisible = 0, within1 = 0, tilted = 0, drawn = 0, frames = 0, found = 0
        var errors: [Double] = []
        while let frame = try source.nextFrame() {
            var rgb: RGBImage
            switch frame.payload {
            case .jpeg(let bytes): rgb = try decoder.decodeRGB(bytes, scale: .full)
            case .rgb(let image): rgb = image
            case .gray(let g): rgb = RGBImage(width: g.width, height: g.height, pixels: g.pixels.flatMap { [$0, $0, $0] })
            }
            let camera = fovDegrees.map { CameraIntrinsics(horizontalFOVDegrees: $0, width: rgb.width, height: rgb.height) }
                ?? .defaultWebcam(width: rgb.width, height: rgb.height)
            func tracker(smoothed: Bool) -> FaceTracker {
                var config = FaceTrackerConfiguration()
                config.smoothing = smoothed
                config.maxFaces = 1
                config.confidenceModel = confidence
                return FaceTracker(detector: detector, landmarkModel: cascade, poseEstimator: FacePoseEstimator(face: face), camera: camera, configuration: config)
            }
            if place == nil { place = tracker(smoothed: true); find = tracker(smoothed: false) }
            let original = GrayImage(luma: rgb)
            var truth: [SIMD2<Double>]?
            var isVisible = false
            if let anchor = place!.process(original, timestampSeconds: frame.timestampSeconds).filter({ $0.state != .lost }).max(by: { $0.box.width < $1.box.width }) {
                let pose = composite.cameraFromCard(cameraFromFace: anchor.cameraFromFace)
                let exposure = Self.exposure(from: previous ?? pose, to: pose, shutter: shutter)
                composite.draw(into: &rgb, exposure: exposure, camera: camera,
                               brightness: Self.brightness(original, landmarks: anchor.landmarks), gradient: gradient)
                previous = pose
                drawn += 1
                truth = CardComposite.corners(cameraFromCard: pose, camera: camera)
                isVisible = CardComposite.fullyVisible(cameraFromCard: pose, camera: camera)
            } else {
                previous = nil
            }
            var degradation = CameraDegradation()
            degradation.noiseSD = noise
            degradation.noiseSeed = rng.next()
            degradation.apply(to: &rgb)
            let jpeg = try encoder.encode(rgb, quality: quality)
            try sink?.write(jpeg: jpeg, timestampSeconds: frame.timestampSeconds)
            // What `measure --scale card` sees: the compressed frame, tracked unsmoothed.
            let seen = try decoder.decodeGray(jpeg, scale: .full)
            var error: Double?, failure = ""
            if let a = find!.process(seen, timestampSeconds: frame.timestampSeconds).filter({ $0.state != .lost }).max(by: { $0.box.width < $1.box.width }) {
                switch CardDetector().detect(in: seen, landmarks: a.landmarks, cameraFromFace: a.cameraFromFace, camera: camera) {
                case .success(let card):
                    found += 1
                    if let truth { error = Self.cornerError(card.corners, truth) }
                case .failure(let f):
                    failure = f.description
                    if case .tilted = f { tilted += 1 }
                }
            } else {
                failure = "no face"
            }
            if isVisible {
                visible += 1
                if let error {
                    detectedVisible += 1
                    errors.append(error)
                    if error <= 1 { within1 += 1 }
                }
            }
            rows.append("\(frames)\t\(isVisible ? 1 : 0)\t\(error != nil ? 1 : 0)\t\(error.map { String(format: "%.3f", $0) } ?? "")\t\(failure)")
            frames += 1
        }
        try sink?.finish()
        errors.sort()
        func pct(_ p: Double) -> Double { errors.isEmpty ? .nan : errors[min(errors.count - 1, Int(Double(errors.count - 1) * p + 0.5))] }
        print(String(format: "%@: %d frames, card drawn on %d, fully visible on %d; card found on %d of those (%d frames in all), all four corners within 1 px on %d = %.1f %% of the visible frames; corner error (worst of four) median %.2f px, p95 %.2f px; rejected as tilted: %d frames",
                     input, frames, drawn, visible, detectedVisible, found, within1, visible > 0 ? 100 * Double(within1) / Double(visible) : .nan,
                     pct(0.5), pct(0.95), tilted))
        if let tsv { try (rows.joined(separator: "\n") + "\n").write(toFile: tsv, atomically: true, encoding: .utf8) }
    }

    /// The poses over the exposure: `shutter` of the frame interval ending halfway between... centred
    /// on this frame's pose, the motion taken as the change since the last frame (7 samples).
    static func exposure(from a: RigidTransform, to b: RigidTransform, shutter: Double) -> [RigidTransform] {
        guard shutter > 0 else { return [b] }
        let dr = (a.rotation.inverse * b.rotation).rotationVector, dt = b.translation - a.translation
        return (0..<7).map { k in
            let s = (Double(k) / 6 - 0.5) * shutter
            return RigidTransform(rotation: b.rotation * Rotation(rotationVector: dr * s), translation: b.translation + dt * s)
        }
    }

    /// The card's brightness from the forehead's light: a matte white-ish card reflects about twice
    /// what skin does (skin albedo ≈ 0.4 in linear light), so the card is lit as the skin above the
    /// brows is, scaled by 1 / 0.45.
    static func brightness(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> Double {
        let brows = (17...26).map { landmarks[$0] }
        let x0 = Int(brows.map(\.x).min()!), x1 = Int(brows.map(\.x).max()!)
        let y1 = Int(brows.map(\.y).min()!), eyeToBrow = Int(max(4, landmarks[27].y - Float(y1)))
        let y0 = y1 - eyeToBrow
        var sum = 0.0, n = 0
        for y in max(0, y0)..<max(0, min(image.height, y1)) {
            for x in max(0, x0)..<min(image.width, x1) { sum += SRGB.decode(Double(image[x, y]) / 255); n += 1 }
        }
        guard n > 0 else { return 0.8 }
        return min(1.1, max(0.25, sum / Double(n) / 0.45))
    }

    /// The worst of the four corners' distances to the nearest drawn corner (pixels).
    static func cornerError(_ found: [SIMD2<Double>], _ truth: [SIMD2<Double>]) -> Double {
        found.map { f in truth.map { (($0 - f) * ($0 - f)).sum().squareRoot() }.min()! }.max() ?? .infinity
    }
}
