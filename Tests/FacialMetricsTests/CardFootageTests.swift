import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import JPEGCodec
import Media
import MetricsEvaluation
import Testing

/// Issue 24 item 3 on a short stretch of real footage: an ID-1 card composited at the tracked
/// forehead of a dev clip is found with all four corners within 1 px, and the same card tipped 20°
/// away from the eye plane is never accepted. The whole clips: `Bench/RealClips/card_composite.sh`.
///
/// Nested in the serialized ground-truth suite: the detector and cascade are shared (`Fixtures`).
extension GroundTruthTests {
@Suite("Card composited into real footage")
struct CardFootageTests {
    static func path(_ name: String) -> String {
        repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/videos/\(name).mjpeg").path
    }
    static let clip = path("liveportrait_d18")
    static var haveClip: Bool { Fixtures.available && FileManager.default.fileExists(atPath: clip) }
    static var haveD3: Bool { Fixtures.available && FileManager.default.fileExists(atPath: path("liveportrait_d3")) }
    // Each frame tracks twice and composites in a debug build: 8 frames took ≈ 60 s per test on the
    // shared cores; 6 keep the ≥ 95 % bar meaningful (one miss fails it).
    static let frames = 6

    /// Runs `frames` frames of a clip (d18 unless told) from frame `skip` with the card tipped by `tilt`
    /// degrees, the camera's field of view `fov` degrees; the detector reads the composited frames in
    /// colour, as `measure --scale card` hands them to it.
    static func run(tilt: Double, clip: String = clip, fov: Double = 25, skip: Int = 0) throws -> [CardFootage.Frame] {
        let face = try #require(Fixtures.face)
        let source = try MJPEGStreamSource(path: clip)
        defer { source.close() }
        let decoder = TurboJPEGDecoder(), encoder = TurboJPEGEncoder()
        let footage = CardFootage(composite: CardComposite(placement: .forehead, tiltDegrees: tilt), faceDetector: Fixtures.detector!,
                                  landmarkModel: Fixtures.cascade!, face: face, configuration: FaceTrackerConfiguration(),
                                  encode: { (try? encoder.encode($0, quality: 85)) ?? [] }, decode: { try? decoder.decodeGray($0) },
                                  decodeColour: { try? decoder.decodeRGB($0) })
        var out: [CardFootage.Frame] = []
        for _ in 0..<skip { _ = try source.nextFrame() }
        // The clip's field of view as `measure` estimates it (25°, README); the composite and the
        // detector only need to agree on it.
        while out.count < frames, let frame = try source.nextFrame() {
            guard case .jpeg(let bytes) = frame.payload else { continue }
            let rgb = try decoder.decodeRGB(bytes, scale: .full)
            out.append(footage.process(rgb, camera: CameraIntrinsics(horizontalFOVDegrees: fov, width: rgb.width, height: rgb.height),
                                       timestampSeconds: frame.timestampSeconds))
        }
        return out
    }

    @Test("a flat card's corners are found within 1 px on ≥ 95 % of the frames where it is fully visible",
          .enabled(if: haveClip, "needs ../shared/data/videos/liveportrait_d18.mjpeg and Models/"))
    func flatCard() throws {
        let frames = try Self.run(tilt: 0)
        let visible = frames.filter(\.visible)
        let errors = visible.map { $0.cornerError ?? .infinity }
        print("card footage d18: corner errors (px) " + errors.map { String(format: "%.2f", $0) }.joined(separator: " "))
        try #require(visible.count >= frames.count - 1, "card fully visible on \(visible.count) of \(frames.count) frames")
        let within = errors.filter { $0 <= 1 }.count
        #expect(Double(within) >= 0.95 * Double(visible.count), "within 1 px on \(within) of \(visible.count)")
    }

    /// d3's first frames: a light card between dark hair (above and beside it) and the forehead's
    /// skin. The card's short sides were outvoted by hair over the whole search window and its bottom
    /// side by its own top edge's fan of angles: no card was found on any of these frames before the
    /// short sides were searched between the long ones (issue 24; `eval card`: d3 32.5 → 65.0 %).
    @Test("a card framed by hair (d3): corners within 1 px", .enabled(if: haveD3, "needs ../shared/data/videos/liveportrait_d3.mjpeg and Models/"))
    func cardFramedByHair() throws {
        // d3's field of view as `measure` estimates it (22°).
        let frames = try Self.run(tilt: 0, clip: Self.path("liveportrait_d3"), fov: 22)
        let visible = frames.filter(\.visible)
        let errors = visible.map { $0.cornerError ?? .infinity }
        print("card footage d3: corner errors (px) " + errors.map { String(format: "%.2f", $0) }.joined(separator: " "))
        try #require(visible.count >= frames.count - 1, "card fully visible on \(visible.count) of \(frames.count) frames")
        let within = errors.filter { $0 <= 1 }.count
        #expect(Double(within) >= 0.95 * Double(visible.count), "within 1 px on \(within) of \(visible.count)")
    }

    /// d3 frames 213–218: the pale blue-grey card's bottom side lies on forehead skin of its own grey
    /// (5–10 levels apart in luma, 35–40 in Cb and Cr). In luma the detector found no card on any of
    /// these frames (`eval card` on the whole clip, session 30); reading colour it finds all four
    /// corners (issue 24: d3 66.9 → 94.9 %).
    @Test("a card on skin of its own grey (d3): corners within 1 px", .enabled(if: haveD3, "needs ../shared/data/videos/liveportrait_d3.mjpeg and Models/"))
    func cardOnSkinOfItsGrey() throws {
        let frames = try Self.run(tilt: 0, clip: Self.path("liveportrait_d3"), fov: 22, skip: 213)
        let visible = frames.filter(\.visible)
        let errors = visible.map { $0.cornerError ?? .infinity }
        print("card footage d3 from frame 213: corner errors (px) " + errors.map { String(format: "%.2f", $0) }.joined(separator: " "))
        try #require(visible.count >= frames.count - 1, "card fully visible on \(visible.count) of \(frames.count) frames")
        let within = errors.filter { $0 <= 1 }.count
        #expect(Double(within) >= 0.95 * Double(visible.count), "within 1 px on \(within) of \(visible.count)")
    }

    @Test("a card tipped 20° away from the eye plane is rejected", .enabled(if: haveClip, "needs ../shared/data/videos/liveportrait_d18.mjpeg and Models/"))
    func tiltedCard() throws {
        let frames = try Self.run(tilt: 20)
        let accepted = frames.filter { if case .success? = $0.detection { return true } else { return false } }.count
        let tilted = frames.filter { if case .failure(.tilted)? = $0.detection { return true } else { return false } }.count
        #expect(accepted == 0, "tilted card accepted on \(accepted) of \(frames.count) frames")
        #expect(tilted >= frames.count - 2, "rejected as tilted on \(tilted) of \(frames.count) frames")
    }
}
}
