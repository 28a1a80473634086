import FaceModel
import FacialMetrics
import Foundation
import Geometry
import MetricsEvaluation
import Rendering
import Testing

/// Issue 24 item 1: a head turned up to ±15° in yaw and ±10° in pitch, eyes on the camera, measures
/// the same PD as a frontal one. The synthetic head's eyes fixate the camera (iris discs facing it),
/// so the pupils' separation in the head's own frame is what the measurement must recover.
///
/// Nested in the serialized ground-truth suite: both share the detector and the landmark cascade
/// (`Fixtures`), which are not safe to use from two tests at once (run side by side, the tracker
/// lost the rendered faces).
extension GroundTruthTests {
@Suite("Turned heads (rendered head, yaw ±15°, pitch ±10°)")
struct TurnedHeadTests {
    static let camera = CameraIntrinsics(horizontalFOVDegrees: 60, width: 1280, height: 720)
    static let yaws: [Double] = [-15, -10, -5, 0, 5, 10, 15]
    static let pitches: [Double] = [-10, 0, 10]

    struct Row {
        var yaw, pitch: Double
        /// Far PD error with the tracked pose (the whole path), and with the rendered pose (the
        /// correction alone, same pupils and card): nil when not measured.
        var error, geometryError: Double?
        var tracked: (yaw: Double, pitch: Double)
    }

    /// Far PD error (mm) per rendered pose, with a gate wide open so the correction itself is measured
    /// (the tracker's pitch on this head carries a bias of its own, see GroundTruthTests).
    static func sweep(_ method: ScaleMethod) throws -> [Row] {
        let head = try #require(Fixtures.head())
        var out: [Row] = []
        for pitch in pitches {
            for yaw in yaws {
                var gate = FrameGate()
                gate.maxYawDegrees = 40
                gate.maxPitchDegrees = 40
                let s = MeasurementSession(face: head.face, camera: camera, method: method, gate: gate)
                let p = pose(yaw: yaw, pitch: pitch, distance: 520, x: 10, y: -10)
                let run = runSynthetic(head, pose: p, camera: camera, method: method, session: s)
                var row = Row(yaw: yaw, pitch: pitch, error: nil, geometryError: nil, tracked: (.nan, .nan))
                if let r = run.result {
                    row.tracked = (r.yawDegrees, r.pitchDegrees)
                    row.error = r.measurement.map { $0.pdFar - run.truthFar }
                    let scale: MetricScale? = method == .camera ? .camera(cameraFromFace: p) : r.card.map { .card($0, cameraFromFace: p) }
                    if r.measurement != nil, let scale {
                        let exact = s.measurer.measure(landmarks: [SIMD2<Float>](repeating: .zero, count: 68), cameraFromFace: p, eyes: r.eyePair, scale: scale)
                        row.geometryError = exact.map { $0.pdFar - run.truthFar }
                    }
                    if r.measurement == nil {
                        print("turned \(method.rawValue) yaw \(yaw) pitch \(pitch): not measured (\((r.rejections.map(\.rawValue) + [r.cardFailure?.description].compactMap { $0 }).joined(separator: "; ")))")
                    }
                }
                out.append(row)
            }
        }
        func mm(_ v: Double?) -> String { v.map { String(format: "%+.2f", $0) } ?? "  —  " }
        let table = out.map { String(format: "%+4.0f %+4.0f  tracked %+6.1f %+6.1f  ", $0.yaw, $0.pitch, $0.tracked.yaw, $0.tracked.pitch)
                              + "error \(mm($0.error)) mm, with the rendered pose \(mm($0.geometryError)) mm" }
        print("turned heads, \(method.rawValue) scale (rendered Euler yaw, pitch; tracked view angles; far PD error):\n" + table.joined(separator: "\n"))
        return out
    }

    static func check(_ rows: [Row], geometryLimit: Double, trackedLimit: Double) {
        #expect(rows.filter { $0.error != nil }.count >= rows.count - 2, "measured on all but at most two poses (the production gate but for the angles)")
        for r in rows {
            // The correction: with the rendered pose the pupils' separation in the head's frame is exact.
            if let e = r.geometryError { #expect(abs(e) <= geometryLimit, "yaw \(r.yaw) pitch \(r.pitch), rendered pose: \(e) mm") }
            // The whole path also carries the tracker's pose error on this head (yaw ≈ 2° low, depth ±2 %).
            if let e = r.error { #expect(abs(e) <= trackedLimit, "yaw \(r.yaw) pitch \(r.pitch), tracked: \(e) mm") }
        }
    }

    @Test("camera scale over yaw ±15°, pitch ±10°: the correction within 0.25 mm", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func cameraScale() throws {
        // Measured (issue 24): rendered pose ≤ 0.15 mm; tracked −1.67…+0.97 mm, the PnP depth's error
        // on this head (510–528 mm for 520).
        Self.check(try Self.sweep(.camera), geometryLimit: 0.25, trackedLimit: 2.0)
    }

    @Test("card scale over yaw ±15°, pitch ±10°: the correction within 0.75 mm, the whole path within 1 mm", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func cardScale() throws {
        // Measured (stop 30, after the limbus fit's lid and gamma fixes, the card search between long
        // sides and the retrained landmark model): rendered pose −0.71…+0.05 mm, worst at yaw −5°,
        // pitch −10° (card corners and pupils; it was ≤ 0.59 mm before), tracked −0.78…+0.25 mm
        // (was ≤ 0.84 mm).
        Self.check(try Self.sweep(.card), geometryLimit: 0.75, trackedLimit: 1.0)
    }
}
}
