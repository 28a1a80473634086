import Anchors
import FaceData
import FaceDetection
import FaceModel
import FaceTracking
import Foundation
import Geometry
import Imaging
import Inputs
import JPEGCodec
import Landmarks
import PoseEstimation
import Testing

private let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let facesFolder = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path
private let hasFaces = FileManager.default.fileExists(atPath: facesFolder + "/index.csv")

/// Returns one fixed box, like a detector that found the face where it is.
private final class FixedDetector: FaceDetector {
    let box: FaceBox
    init(_ box: FaceBox) { self.box = box }
    func detect(in image: GrayImage) -> [FaceBox] { [box] }
}

/// `image` moved by (dx, dy) whole pixels, edges repeated: a face drifting across the frame.
private func shifted(_ image: GrayImage, dx: Int, dy: Int) -> GrayImage {
    var out = GrayImage(width: image.width, height: image.height)
    for y in 0..<image.height {
        for x in 0..<image.width {
            out[x, y] = image[min(max(x - dx, 0), image.width - 1), min(max(y - dy, 0), image.height - 1)]
        }
    }
    return out
}

/// The tracker fits every face in one reused workspace and rewrites its anchors in place; its
/// landmarks and face probabilities must be exactly those of independent cascade fits frame by
/// frame, and anchors a caller keeps must not change when the tracker moves on.
@Test(.enabled(if: hasFaces, "shared face data not found next to the repository"))
func trackerMatchesIndependentCascadeFitsAndKeepsReturnedAnchors() throws {
    let cascade = try LandmarkCascade(contentsOf: repoRoot.appendingPathComponent("Models/landmarks.lmrk").path)
    let model = try TrackingConfidenceModel(contentsOf: repoRoot.appendingPathComponent("Models/tracking-confidence.tcnf").path)
    let meanFace = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    let entries = try FaceDataset(directory: facesFolder).entries(.validation).prefix(2)
    for entry in entries {
        let face = try FaceDataset.load(entry, decoder: PhotoDecoder())
        let box = FaceBox.canonical(landmarks: face.landmarks)
        var configuration = FaceTrackerConfiguration()
        configuration.confidenceModel = model
        configuration.smoothing = false
        configuration.lossFrames = 1000  // keep the face whatever the classifier says: this compares fits
        configuration.lossConfidence = 0
        configuration.startConfidence = 0
        let camera = CameraIntrinsics(horizontalFOVDegrees: 60, width: face.image.width, height: face.image.height)
        let tracker = FaceTracker(detector: FixedDetector(box), landmarkModel: cascade, poseEstimator: FacePoseEstimator(face: meanFace),
                                  camera: camera, configuration: configuration)
        #expect(tracker.usesConfidenceModel)

        var refining = cascade
        refining.detectionRefinement = DetectionRefinement(scorer: model)
        var previous: [SIMD2<Float>]?
        var kept: [(anchors: [FaceAnchor], landmarks: [SIMD2<Float>], camera: [SIMD3<Double>], pupils: [SIMD2<Float>])] = []
        for k in 0..<8 {
            // Drifts right and down, then back: the crop moves and changes size a little.
            let image = shifted(face.image, dx: k < 5 ? 2 * k : 16 - 2 * k, dy: k < 5 ? k : 8 - k)
            let anchors = tracker.process(image, timestampSeconds: Double(k) / 30)
            try #require(anchors.count == 1 && anchors[0].state == (k == 0 ? .detected : .tracked), "\(entry.name) frame \(k): \(anchors.map(\.state))")
            let expected = previous.map { refining.trackWithFeatures(in: image, previous: $0) } ?? refining.landmarksWithFeatures(in: image, box: box)
            #expect(anchors[0].landmarks == expected.landmarks, "frame \(k)")
            #expect(anchors[0].faceProbability == Double(model.probability(expected.features)), "frame \(k)")
            #expect(anchors[0].box == FaceBox.canonical(landmarks: expected.landmarks))
            previous = expected.landmarks
            let a = anchors[0]
            kept.append((anchors, Array(a.landmarks), Array(a.landmarksCamera), Array(a.pupils)))
        }
        // Every frame's anchors are still what they were when returned.
        for (k, frame) in kept.enumerated() {
            #expect(frame.anchors[0].landmarks == frame.landmarks, "frame \(k) landmarks changed")
            #expect(frame.anchors[0].landmarksCamera == frame.camera, "frame \(k) 3D landmarks changed")
            #expect(frame.anchors[0].pupils == frame.pupils, "frame \(k) pupils changed")
        }
        #expect(kept[1].landmarks != kept[4].landmarks)
    }
}

/// The public anchor builder and the tracker's in-place update agree (same fields from the same pose).
@Test func anchorBuilderFillsEveryDerivedField() throws {
    let face = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    let camera = CameraIntrinsics(horizontalFOVDegrees: 60, width: 640, height: 480)
    let pose = RigidTransform(rotation: EulerAngles(degreesPitch: 5, yaw: -10, roll: 3).rotation, translation: SIMD3(10, -5, 550))
    let landmarks = face.landmarks.map { p -> SIMD2<Float> in let q = camera.project(pose.apply(p)); return SIMD2(Float(q.x), Float(q.y)) }
    let estimate = PoseEstimate(cameraFromModel: pose, reprojectionRMSPx: 0.5, weightedRMSPx: 0.4, confidence: 0.9, iterations: 3)
    let a = FaceTracker.anchor(id: 7, time: 1.5, state: .tracked, cameraFromFace: pose, landmarks: landmarks, face: face, camera: camera, pose: estimate)
    #expect(a.id == 7 && a.timestampSeconds == 1.5 && a.state == .tracked && a.confidence == 0.9 && a.measuredPose == estimate)
    #expect(a.landmarks == landmarks && a.box == FaceBox.canonical(landmarks: landmarks))
    #expect(a.landmarksCamera == face.landmarks.map { pose.apply($0) })
    #expect(a.eyeTransforms == face.pupils.map { RigidTransform(rotation: pose.rotation, translation: pose.apply($0)) })
    #expect(a.pupils == face.pupils.map { p -> SIMD2<Float> in let q = camera.project(pose.apply(p)); return SIMD2(Float(q.x), Float(q.y)) })
    #expect(a.faceForward == -(pose.rotation.matrix.c2) && a.faceProbability == nil && a.headWidthScale == 1)
}
