import FaceData
import FaceDetection
import FaceModel
import FaceTracking
import Foundation
import Geometry
import Imaging
import Inputs
import Landmarks
import PoseEstimation
import Testing

private let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let facesFolder = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path
private let hasFaces = FileManager.default.fileExists(atPath: facesFolder + "/index.csv")

/// A photo whose face the detector scores under its threshold (`PhotoFaceDetector.standbyCount`):
/// the validation crop afw_4285163979_3, a plain older face turned and tilted a little, whose best
/// window scores -1.51 against -0.84 while a false box elsewhere in the crop passes. `landmarks`
/// reported no face, and `measure`/`live --input` found none either; now both find it, by the same
/// fit judge, and a photo with no face still gives none.
@Suite(.enabled(if: hasFaces, "shared face data not found next to the repository"))
struct StandbyWindowTests {
    static let models = repoRoot.appendingPathComponent("Models")

    static func parts() throws -> (cascade: LandmarkCascade, judge: TrackingConfidenceModel, detector: PhotoFaceDetector) {
        var cascade = try LandmarkCascade(contentsOf: models.appendingPathComponent("landmarks.lmrk").path)
        let judge = try TrackingConfidenceModel(contentsOf: models.appendingPathComponent("tracking-confidence.tcnf").path)
        cascade.detectionRefinement = DetectionRefinement(scorer: judge)
        let detector = PhotoFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: models.appendingPathComponent("face-detector.fdet").path))
        return (cascade, judge, detector)
    }

    static func face(_ name: String) throws -> AnnotatedFace {
        let entry = try #require(try FaceDataset(directory: facesFolder).entries(.all).first { $0.name == name })
        return try FaceDataset.load(entry, decoder: PhotoDecoder())
    }

    /// Mean point error in inter-ocular distances (outer eye corners).
    static func error(_ shape: [SIMD2<Float>], _ truth: [SIMD2<Float>]) -> Float {
        let d = { (a: SIMD2<Float>, b: SIMD2<Float>) in ((a - b) * (a - b)).sum().squareRoot() }
        return zip(shape, truth).map(d).reduce(0, +) / Float(truth.count) / d(truth[36], truth[45])
    }

    /// The tracker as `measure --input` and `live --input` run it on a photo.
    static func tracker(_ parts: (cascade: LandmarkCascade, judge: TrackingConfidenceModel, detector: PhotoFaceDetector), image: GrayImage) throws -> FaceTracker {
        var configuration = FaceTrackerConfiguration()
        configuration.confidenceModel = parts.judge
        let meanFace = try MeanFace(contentsOf: models.appendingPathComponent("mean-face.json").path)
        return FaceTracker(detector: parts.detector, landmarkModel: parts.cascade, poseEstimator: FacePoseEstimator(face: meanFace),
                           camera: CameraIntrinsics(horizontalFOVDegrees: 60, width: image.width, height: image.height), configuration: configuration)
    }

    @Test func faceUnderTheThresholdIsFoundByLandmarksAndByTheTracker() throws {
        let face = try Self.face("afw_4285163979_3")
        let parts = try Self.parts()
        let found = parts.cascade.faces(in: face.image, detector: parts.detector)
        let best = found.map { Self.error($0.landmarks, face.landmarks) }.min()
        #expect(best.map { $0 < 0.08 } == true, "landmarks: best fit error \(String(describing: best)) over \(found.count) faces")
        let anchors = try Self.tracker(parts, image: face.image).process(face.image, timestampSeconds: 0)
        let tracked = anchors.map { Self.error(Array($0.landmarks), face.landmarks) }.min()
        #expect(tracked.map { $0 < 0.08 } == true, "tracker: best fit error \(String(describing: tracked)) over \(anchors.count) faces")

        // Without standby windows neither finds it: the test shows the change.
        parts.detector.standbyCount = 0
        let before = parts.cascade.faces(in: face.image, detector: parts.detector).map { Self.error($0.landmarks, face.landmarks) }
        #expect(before.allSatisfy { $0 > 0.25 }, "found without standby windows: \(before)")
        let beforeTracked = try Self.tracker(parts, image: face.image).process(face.image, timestampSeconds: 0)
        #expect(beforeTracked.allSatisfy { Self.error(Array($0.landmarks), face.landmarks) > 0.25 })
    }

    /// Validation crops with the face painted over in grey (LFPW and HELEN; AFW crops often show
    /// other people): the standby windows must not turn the background into a face. A few of these
    /// crops still show another person's face at their edge (lfpw_image_0406, 0755), so a small count
    /// is allowed; a standby that accepted weak windows without the judge finds faces on most of them.
    @Test func paintedOutFacesGiveNoFace() throws {
        let parts = try Self.parts()
        let entries = try FaceDataset(directory: facesFolder).entries(.validation).filter { !$0.name.hasPrefix("afw_") }
        var withFace: [String] = []
        for entry in entries.prefix(12) {
            var face = try FaceDataset.load(entry, decoder: PhotoDecoder())
            let box = FaceBox.canonical(landmarks: face.landmarks)
            let grow: Float = 1.5
            let x0 = Int(box.centre.x - grow * box.width / 2), x1 = Int(box.centre.x + grow * box.width / 2)
            let y0 = Int(box.centre.y - grow * 0.6 * box.height), y1 = Int(box.centre.y + grow * 0.5 * box.height)
            for y in max(0, y0) ..< min(face.image.height, y1) {
                for x in max(0, x0) ..< min(face.image.width, x1) { face.image[x, y] = 128 }
            }
            if !parts.cascade.faces(in: face.image, detector: parts.detector).isEmpty { withFace.append(entry.name) }
        }
        #expect(withFace.count <= 1, "faces found on painted-out crops: \(withFace)")
    }
}
