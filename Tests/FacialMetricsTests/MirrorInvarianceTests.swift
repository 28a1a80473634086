import FaceDetection
import FaceMarkup
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Landmarks
import MetricsEvaluation
import PoseEstimation
import Testing

/// Issue 24 item 5: a frame and its exact left-right mirror (`ffmpeg -vf hflip` without the JPEG
/// generation) measure the same PD, the monocular PDs swapped. `measure` averages every landmark fit
/// and pupil refinement with the frame's mirror (`MirrorAveragedFitter`, `MirrorAveragedPupils`);
/// without that the cascade and the limbus fit are not mirror-symmetric and the PD moved (0.34 mm on
/// videoretalking_face1 and its hflip).
///
/// Nested in the serialized ground-truth suite: it shares the detector and the landmark cascade
/// (`Fixtures`), which are not safe to use from two tests at once.
extension GroundTruthTests {
@Suite("Mirror invariance (rendered head and its exact mirror)")
struct MirrorInvarianceTests {
    static let camera = CameraIntrinsics(horizontalFOVDegrees: 60, width: 640, height: 480)
    static let pose = FacialMetricsTests.pose(yaw: 8, pitch: -4, distance: 520, x: 25, y: -10)

    /// The rendered head turned and off-centre (an asymmetric frame) in gray, and its exact mirror.
    static func frames() throws -> (GrayImage, GrayImage) {
        let head = try #require(Fixtures.head())
        let image = GrayImage(luma: head.render(cameraFromFace: pose, camera: camera, lighting: sideLight, withCard: false))
        var mirrored = GrayImage(width: 0, height: 0)
        mirrored.setMirrored(of: image)
        return (image, mirrored)
    }

    /// One frame through the measurement path from the landmarks `start` (a track's previous shape):
    /// the tracked fit, its PnP pose, the session's pupils, gate, iris scale and report.
    static func measure(_ image: GrayImage, start: [SIMD2<Float>], mirrorAveraged: Bool) throws -> (report: MeasurementReport, shape: [SIMD2<Float>]) {
        let face = try #require(Fixtures.face)
        let plain = try #require(Fixtures.cascade).makeFitter(judge: nil)
        let fitter: any LandmarkFitter = mirrorAveraged ? MirrorAveragedFitter(plain) : plain
        let shape = fitter.track(in: .gray(image), previous: start).shape
        let pose = try #require(FacePoseEstimator(face: face).estimate(landmarks: shape, camera: camera))
        var gate = FrameGate()
        gate.maxYawDegrees = 20
        let session = MeasurementSession(face: face, camera: camera, method: .iris, gate: gate)
        session.mirrorAveraged = mirrorAveraged
        let r = session.process(image, landmarks: shape, cameraFromFace: pose.cameraFromModel)
        #expect(r.accepted, "frame refused: \(r.rejections.map(\.rawValue))")
        return (try #require(session.report()), shape)
    }

    @Test("a frame and its mirror, from mirrored starts: the same far PD within 0.01 mm, the mono PDs swapped", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func mirroredFrameMeasuresTheSame() throws {
        let (image, mirrored) = try Self.frames()
        let start = try #require(Fixtures.landmarks(image))
        let w = image.width
        var rows: [String] = []
        for averaged in [false, true] {
            let a = try Self.measure(image, start: start, mirrorAveraged: averaged)
            let b = try Self.measure(mirrored, start: IBUG68.mirrored(start, imageWidth: w), mirrorAveraged: averaged)
            let shapeGap = zip(a.shape, IBUG68.mirrored(b.shape, imageWidth: w)).map { (($0 - $1) * ($0 - $1)).sum().squareRoot() }.max() ?? .infinity
            let d = (far: b.report.pdFar.value - a.report.pdFar.value,
                     monoRight: b.report.monoLeft.value - a.report.monoRight.value, monoLeft: b.report.monoRight.value - a.report.monoLeft.value)
            rows.append(String(format: "%@: far PD %.3f / mirrored %.3f mm (Δ %+.4f), mono R/L %.3f/%.3f, mirrored L/R %.3f/%.3f, landmarks up to %.4f px apart",
                               averaged ? "mirror-averaged" : "plain", a.report.pdFar.value, b.report.pdFar.value, d.far,
                               a.report.monoRight.value, a.report.monoLeft.value, b.report.monoLeft.value, b.report.monoRight.value, shapeGap))
            if averaged {
                #expect(shapeGap < 0.01, "landmarks of the mirror, mapped back, \(shapeGap) px from the frame's")
                #expect(abs(d.far) <= 0.01, "far PD \(a.report.pdFar.value) against \(b.report.pdFar.value) mm mirrored")
                #expect(abs(d.monoRight) <= 0.01 && abs(d.monoLeft) <= 0.01, "mono PDs not swapped: \(d)")
            }
        }
        print("mirror invariance, one rendered frame (yaw 8°, pitch −4°):\n" + rows.joined(separator: "\n"))
    }

    @Test("the whole measurement path (detector, tracker, session) on a frame and its mirror: the far PD within 0.01 mm, the mono PDs swapped", .enabled(if: Fixtures.available, "needs Models/ and the demo portrait"))
    func trackedFrameAndMirror() throws {
        let face = try #require(Fixtures.face)
        let (rendered, renderedMirror) = try Self.frames()
        // The demo portrait as `measure` reads a photo: `PhotoFaceDetector`, one detection frame. Its
        // boxes on the portrait and on its mirror are not mirrors of each other, and the fit depends on
        // the box: without `MirrorAveragedDetection` (the fits mirror-averaged, each from its own box)
        // the far PD read 63.01 and 64.11 mm mirrored through `measure` (PNG, exact hflip).
        let photoDetector = PhotoFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: repoRoot.appendingPathComponent("Models/face-detector.fdet").path))
        let photo = GrayImage(luma: try #require(Fixtures.photo))
        var photoMirror = GrayImage(width: 0, height: 0)
        photoMirror.setMirrored(of: photo)
        var rows: [String] = []
        let cases: [(String, GrayImage, GrayImage, any FaceDetector, Int)] = [("rendered head", rendered, renderedMirror, try #require(Fixtures.detector), 4),
                                                                              ("portrait", photo, photoMirror, photoDetector, 1)]
        for (name, image, mirrored, detector, frames) in cases {
            let camera = CameraIntrinsics(horizontalFOVDegrees: 60, width: image.width, height: image.height)
            for averaged in [false, true] {
                func run(_ frame: GrayImage) throws -> MeasurementReport {
                    var config = FaceTrackerConfiguration()
                    config.smoothing = false
                    config.mirrorAveraged = averaged
                    let tracker = FaceTracker(detector: detector, landmarkModel: try #require(Fixtures.cascade),
                                              poseEstimator: FacePoseEstimator(face: face), camera: camera, configuration: config)
                    var gate = FrameGate()
                    gate.maxYawDegrees = 40
                    gate.maxPitchDegrees = 40
                    gate.minimumIrisVisibleFraction = 0
                    let session = MeasurementSession(face: face, camera: camera, method: .iris, gate: gate)
                    session.mirrorAveraged = averaged
                    // The rendered frame detected, then tracked (a video of a still head); the photo detected.
                    for t in 0..<frames {
                        let a = try #require(tracker.process(frame, timestampSeconds: Double(t) / 30).first { $0.state != .lost })
                        if t == frames - 1 {
                            let r = session.process(frame, landmarks: a.landmarks, cameraFromFace: a.cameraFromFace)
                            #expect(r.accepted, "\(name): frame refused: \(r.rejections.map(\.rawValue))")
                        }
                    }
                    return try #require(session.report())
                }
                let a = try run(image), b = try run(mirrored)
                let d = b.pdFar.value - a.pdFar.value
                rows.append(String(format: "%@, %@: far PD %.3f / mirrored %.3f mm (Δ %+.4f), mono R/L %.3f/%.3f, mirrored L/R %.3f/%.3f", name,
                                   averaged ? "mirror-averaged" : "plain", a.pdFar.value, b.pdFar.value, d,
                                   a.monoRight.value, a.monoLeft.value, b.monoLeft.value, b.monoRight.value))
                if averaged {
                    // Measured: Δ 0.0000 mm on both (plain: rendered +0.17 mm).
                    #expect(abs(d) <= 0.01, "\(name): far PD \(a.pdFar.value) against \(b.pdFar.value) mm mirrored")
                    #expect(abs(b.monoLeft.value - a.monoRight.value) <= 0.01 && abs(b.monoRight.value - a.monoLeft.value) <= 0.01, "\(name): mono PDs not swapped")
                }
            }
        }
        print(String(format: "mirror invariance, rendered far PD %.3f mm", try #require(Fixtures.head()).truth(cameraFromFace: Self.pose).far))
        print("mirror invariance, whole path (rendered: detection then 3 tracked frames; portrait: one detection frame):\n" + rows.joined(separator: "\n"))
    }
}
}
