import FaceData
import FaceTracking
import FacialMetrics
import Foundation
import Imaging
import JPEGCodec
import MetricsEvaluation
import Testing

/// Issue 24 item 2, the reduced CI version of `lorgnette eval coverage` (which runs ≥ 200 trials per
/// method in release, see the FacialMetrics README): the sweep's first 4 trials per method at its
/// 1280x720, checked by the RMS of the errors in units of the band's SD, which a wrong band moves far
/// sooner than it moves a coverage fraction: on the first 8 trials 0.65 (camera), 1.43 (card) and
/// 1.17 (iris); leaving out the iris population's 3.4 %, the head size's 4 % or the card stand-off's
/// 4 mm gives ≈ 3, 5 and 2.5.
///
/// Nested in the serialized ground-truth suite: the detector and cascade are shared (`Fixtures`).
extension GroundTruthTests {
@Suite("Band coverage (synthetic population, reduced)")
struct BandCoverageTests {
    // 4, not 8: each trial renders, degrades and tracks 1280x720 in a debug build (≈ 14 s a trial on
    // the shared 2 cores; 8 took 130-150 s per method, too much for CI beside the other synthetic suites).
    static let trials = 4

    /// One runner for the three tests (building the head's mesh costs more than a trial in a debug
    /// build); the suite is serialized.
    nonisolated(unsafe) static var shared: BandCoverageRunner?

    /// A runner on a head of its own (the trials change its PD, iris and size; the other suites'
    /// cached head stays the default person).
    static func runner() throws -> BandCoverageRunner {
        if let shared { return shared }
        let face = try #require(Fixtures.face), photo = try #require(Fixtures.photo)
        let pl = try #require(Fixtures.landmarks(GrayImage(luma: photo)))
        let encoder = TurboJPEGEncoder(), decoder = TurboJPEGDecoder()
        let r = BandCoverageRunner(head: SyntheticHead(face: face, photo: photo, photoLandmarks: pl), detector: Fixtures.detector!,
                                   landmarkModel: Fixtures.cascade!, width: 1280, height: 720, seed: 24) { rgb, quality in
            guard let bytes = try? encoder.encode(rgb, quality: quality), let back = try? decoder.decodeRGB(bytes, scale: .full) else { return rgb }
            return back
        }
        if let model = try? TrackingConfidenceModel(contentsOf: repoRoot.appendingPathComponent("Models/tracking-confidence.tcnf").path) {
            r.trackerConfiguration.confidenceModel = model
        }
        shared = r
        return r
    }

    static func check(_ method: ScaleMethod) throws {
        let r = try runner()
        let trials = (0..<trials).map { r.run($0, method: method) }
        let c = BandCoverage(method: method, trials: trials)
        print("band coverage (reduced) " + c.line)
        for t in trials where !t.measured { print("  trial \(t.index): \(t.refusal ?? "")") }
        #expect(c.measured >= trials.count - 2, "measured \(c.measured) of \(trials.count)")
        #expect(c.standardisedRMS >= 0.4 && c.standardisedRMS <= 1.8, "errors in band SDs: RMS \(c.standardisedRMS)")
    }

    @Test("iris scale: errors match the band (iris drawn from the population)", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func iris() throws { try Self.check(.iris) }

    @Test("card scale: errors match the band (card stand-off drawn from the population)", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func card() throws { try Self.check(.card) }

    @Test("camera scale: errors match the band (face size drawn from the population)", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func camera() throws { try Self.check(.camera) }

    /// Seed 25's trial 87 (session 36): the head's silhouette, whose top and left edges outvote the
    /// card's own, made with the card's right and bottom sides a flat quadrilateral 1.36x the card
    /// (PD 48.95 mm for 64.85), and the window-wide search's answer was final. The second search now
    /// also runs when a flat card's inside holds a long edge, and the better-scored flat card wins
    /// (`CardDetector.detect`).
    @Test("card scale: the card beside the head's silhouette, not the silhouette", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func cardBesideSilhouette() throws {
        let r = try Self.runner()
        let seed = r.seed
        r.seed = 25
        defer { r.seed = seed }
        let t = r.run(87, method: .card)
        try #require(t.cardPx.count == 4, "no card: \(t.refusal ?? "")")
        let worst = zip(t.cardPx, t.cardTruthPx).map { (($0 - $1) * ($0 - $1)).sum().squareRoot() }.max()!
        print("card beside the silhouette: worst corner \(worst) px, far PD \(t.pdFar?.value ?? .nan) for \(t.person.farPD)")
        #expect(worst <= 1, "a corner \(worst) px off")
        #expect(t.covered == true)
    }
}
}

@Suite("Synthetic population draws")
struct SyntheticPersonTests {
    @Test("people have the population's means, SDs and PD–size correlation")
    func population() {
        var rng = SplitMix64(seed: 7)
        let people = (0..<20_000).map { _ in SyntheticPerson.draw(&rng) }
        func stats(_ v: [Double]) -> (Double, Double) {
            let m = v.reduce(0, +) / Double(v.count)
            return (m, (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count - 1)).squareRoot())
        }
        let pd = stats(people.map(\.farPD)), iris = stats(people.map(\.irisDiameter))
        let scale = stats(people.map(\.faceScale)), card = stats(people.map(\.cardStandOffDeltaMM))
        // Truncated at 3 SD: the SD is 1.3 % smaller than the untruncated one.
        #expect(abs(pd.0 - 63) < 0.1 && abs(pd.1 - 3.5) < 0.1, "PD \(pd)")
        #expect(abs(iris.0 - 11.7) < 0.01 && abs(iris.1 - 0.4) < 0.012, "iris \(iris)")
        #expect(abs(scale.0 - 1) < 0.001 && abs(scale.1 - 0.04) < 0.0012, "face scale \(scale)")
        #expect(abs(card.0) < 0.1 && abs(card.1 - 4) < 0.12, "card stand-off \(card)")
        let cov = zip(people.map(\.farPD), people.map(\.faceScale)).map { ($0 - pd.0) * ($1 - scale.0) }.reduce(0, +) / Double(people.count - 1)
        let r = cov / (pd.1 * scale.1)
        #expect(r > 0.65 && r < 0.79, "PD–face size correlation \(r) (0.72 drawn)")
    }
}
