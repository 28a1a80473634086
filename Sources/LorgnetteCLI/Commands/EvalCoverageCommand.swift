import ArgumentParser
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Imaging
import JPEGCodec
import Inputs
import Landmarks
import Media
import MetricsEvaluation
import PNGCodec
import Pipeline

/// `lorgnette eval coverage`: do the measurement's ≈ 95 % bands keep their promise (issue 24 item 2)?
struct EvalCoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "How often each scale method's ≈ 95 % PD band contains the truth, on synthetic people.",
        discussion: """
            Each trial draws an adult from the population the bands assume (far PD 63 ± 3.5 mm, visible \
            iris 11.7 ± 0.4 mm, face size 1 ± 0.04 of the mean face, forehead card 0 ± 4 mm further from \
            the pupils than the mean face puts it) and photographs the rendered head once (yaw ±12°, pitch \
            ±8°, roll ±4°, 400-700 mm, 50-70° field of view, random key light, defocus, motion blur, \
            sensor noise, JPEG quality 60-95), then measures it as `lorgnette measure` measures one photo. \
            Trial i draws the same person and shot for every method. Reported per method: coverage \
            (measured trials whose far-PD band holds the truth; the bar is 93-97 % of at least 200), \
            the band's half-width, the error, and the RMS of the errors in units of the band's SD.
            """
    )

    @Option(help: "Trials per method.")
    var trials = 200
    @Option(help: "Scale methods, comma-separated (iris, card, camera).")
    var methods = "iris,card,camera"
    @Option(help: "Rendered frame size (WxH).")
    var size = "640x480"
    @Option(help: "Seed of the draws.")
    var seed: UInt64 = 24
    @Option(help: "Write one line per trial here (tab-separated).")
    var tsv: String?
    @Flag(help: "No defocus, motion blur or noise (JPEG quality 95): separates the optics' share of the errors.")
    var sharp = false
    @Flag(name: .customLong("no-mirror-averaging"), help: "Fit and refine each frame only, not also its mirror image (measure's default averages the two).")
    var noMirrorAveraging = false
    @Option(help: "Write each trial's frame here as PNG (diagnostics).")
    var dump: String?

    func run() throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 64, parts[1] >= 64 else { throw ValidationError("--size must be WxH") }
        let methods = try self.methods.split(separator: ",").map { name -> ScaleMethod in
            guard let m = ScaleMethod(rawValue: String(name)) else { throw ValidationError("unknown method \(name)") }
            return m
        }
        let face = try MeanFace(contentsOf: ModelsDirectory.file("mean-face.json").path)
        let detector = HOGFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: ModelsDirectory.file("face-detector.fdet").path))
        let cascade = try LandmarkCascade(contentsOf: ModelsDirectory.file("landmarks.lmrk").path)
        let decoder = TurboJPEGDecoder(), roundTrip = JPEGRoundTrip(encoder: TurboJPEGEncoder(), decoder: decoder)
        let photo = try PayloadDecoding.colour(of: InputOpener.readPhoto(try ModelsDirectory.file("demo/astronaut.jpg").path), decoder: decoder)
        let gray = GrayImage(luma: photo)
        guard let box = detector.detect(in: gray).max(by: { $0.width < $1.width }) else { throw CLIError("no face in the demo portrait") }
        let head = SyntheticHead(face: face, photo: photo, photoLandmarks: cascade.landmarks(in: gray, box: box))
        let runner = BandCoverageRunner(head: head, detector: detector, landmarkModel: cascade, width: parts[0], height: parts[1], seed: seed) { rgb, quality in
            roundTrip.degrade(rgb, quality: quality)
        }
        runner.sharp = sharp
        runner.mirrorAveraged = !noMirrorAveraging
        if let url = try? ModelsDirectory.file("tracking-confidence.tcnf") {
            runner.trackerConfiguration.confidenceModel = try TrackingConfidenceModel(contentsOf: url.path)
        }
        var rows = ["method\ttrial\tpd_true\tiris_true\tface_scale\tcard_delta\tyaw\tpitch\tdistance\tfov\tblur\tmotion\tnoise\tquality\ttracked_yaw\ttracked_pitch\tpd_far\tlo\thi\tcovered\trefusal\tiris_px\tiris_truth_px\tpupil_px\tpupil_truth_px\tpupil_floor_sd\tcard_px\tcard_truth_px"]
        for method in methods {
            var done: [BandCoverageTrial] = []
            let start = Date()
            for i in 0..<trials {
                let t = runner.run(i, method: method)
                if let dump {
                    try ImageFiles.write(runner.frame(i, withCard: method == .card), to: "\(dump)/\(method.rawValue)-\(i).png")
                }
                done.append(t)
                let p = t.person, s = t.shot
                rows.append([method.rawValue, "\(i)", f(p.farPD), f(p.irisDiameter), f(p.faceScale, 4), f(p.cardStandOffDeltaMM),
                             f(s.yawDegrees, 1), f(s.pitchDegrees, 1), f(s.distanceMM, 0), f(s.fovDegrees, 1), f(s.degradation.blurSigmaPx),
                             f(s.degradation.motionLengthPx), f(s.degradation.noiseSD), "\(s.jpegQuality)", f(t.trackedYawDegrees, 1),
                             f(t.trackedPitchDegrees, 1), f(t.pdFar?.value ?? .nan), f(t.pdFar?.ci95.0 ?? .nan), f(t.pdFar?.ci95.1 ?? .nan),
                             t.covered.map { $0 ? "1" : "0" } ?? "", t.refusal ?? "",
                             t.irisPx.map { f($0) }.joined(separator: ","), t.irisTruthPx.map { f($0) }.joined(separator: ","),
                             points(t.pupilPx), points(t.pupilTruthPx),
                             f(t.pupilFloorSD, 4), points(t.cardPx), points(t.cardTruthPx)].joined(separator: "\t"))
            }
            let c = BandCoverage(method: method, trials: done)
            print(c.line + String(format: " [%.1f s]", Date().timeIntervalSince(start)))
            if !c.refusals.isEmpty {
                print("  not measured: " + c.refusals.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
            }
        }
        print("anchors: a card measured by an app ±1 mm in 60 % of cases; a pupillometer's limits of agreement ±0.8 mm")
        if let tsv { try (rows.joined(separator: "\n") + "\n").write(toFile: tsv, atomically: true, encoding: .utf8) }
    }

    private func points(_ ps: [SIMD2<Double>]) -> String { ps.map { "\(f($0.x, 3)),\(f($0.y, 3))" }.joined(separator: ",") }

    private func f(_ v: Double, _ digits: Int = 2) -> String { v.isFinite ? String(format: "%.\(digits)f", v) : "" }
}
