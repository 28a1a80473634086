import Anchors
import FaceDetection
import FaceModel
import FaceTracking
import Foundation
import Geometry
import Imaging
import Landmarks
import PoseEstimation
import Testing

private let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func normal() -> Double {
        let u = Double.random(in: 1e-12..<1, using: &self), v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// A synthetic scene: heads with known poses, seen by a known camera. The scene's current poses are
/// set per frame; the detector and landmark model below read them (test doubles for the trained models).
private final class Scene: @unchecked Sendable {
    let face: MeanFace
    let camera = CameraIntrinsics(horizontalFOVDegrees: 60, width: 640, height: 480)
    var poses: [RigidTransform] = []
    var noise = 0.02  // per-coordinate landmark noise, fraction of inter-ocular distance
    var broken = false  // the regressor returns garbage (face lost)
    var rng = SplitMix(state: 3)
    init(face: MeanFace) { self.face = face }

    func truth(_ k: Int) -> [SIMD2<Float>] {
        face.landmarks.map { let p = camera.project(poses[k].apply($0)); return SIMD2(Float(p.x), Float(p.y)) }
    }
    func observed(_ k: Int) -> [SIMD2<Float>] {
        if broken { return (0..<68).map { _ in SIMD2(Float.random(in: 200...300, using: &rng), Float.random(in: 200...300, using: &rng)) } }
        let t = truth(k)
        let io = Double(((t[45] - t[36]) * (t[45] - t[36])).sum().squareRoot())
        return t.map { $0 + SIMD2(Float(rng.normal() * noise * io), Float(rng.normal() * noise * io)) }
    }
    func nearest(to shape: [SIMD2<Float>]) -> Int {
        let c = shape.reduce(SIMD2<Float>.zero, +) / Float(shape.count)
        return poses.indices.min { a, b in
            let ca = truth(a).reduce(SIMD2<Float>.zero, +) / 68, cb = truth(b).reduce(SIMD2<Float>.zero, +) / 68
            return ((ca - c) * (ca - c)).sum() < ((cb - c) * (cb - c)).sum()
        }!
    }
}

private final class SceneDetector: FaceDetector {
    let scene: Scene
    var runs = 0
    init(_ scene: Scene) { self.scene = scene }
    func detect(in image: GrayImage) -> [FaceBox] {
        runs += 1
        return scene.poses.indices.map { FaceBox.canonical(landmarks: scene.truth($0)) }
    }
}

private struct SceneLandmarks: LandmarkModel, @unchecked Sendable {
    let scene: Scene
    var landmarkCount: Int { 68 }
    func landmarks(in image: GrayImage, box: FaceBox) -> [SIMD2<Float>] {
        let k = scene.poses.indices.min { abs(FaceBox.canonical(landmarks: scene.truth($0)).iou(box) - 1) < abs(FaceBox.canonical(landmarks: scene.truth($1)).iou(box) - 1) }!
        return scene.observed(k)
    }
    func track(in image: GrayImage, previous: [SIMD2<Float>]) -> [SIMD2<Float>] { scene.observed(scene.nearest(to: previous)) }
}

private func makeTracker(_ scene: Scene, smoothing: Bool = true) -> (FaceTracker, SceneDetector) {
    let detector = SceneDetector(scene)
    var config = FaceTrackerConfiguration()
    config.smoothing = smoothing
    let tracker = FaceTracker(detector: detector, landmarkModel: SceneLandmarks(scene: scene), poseEstimator: FacePoseEstimator(face: scene.face),
                              camera: scene.camera, configuration: config)
    return (tracker, detector)
}

private let image = GrayImage(width: 640, height: 480)

@Test func detectsOnceTracksThenReDetectsAfterLossWithANewID() throws {
    let scene = Scene(face: try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path))
    scene.poses = [RigidTransform(rotation: EulerAngles(degreesPitch: 5, yaw: 10, roll: 0).rotation, translation: SIMD3(0, 0, 600))]
    let (tracker, detector) = makeTracker(scene)
    var states: [TrackingState] = [], ids: [Int] = []
    for k in 0..<10 {
        let anchors = tracker.process(image, timestampSeconds: Double(k) / 30)
        #expect(anchors.count == 1)
        states.append(anchors[0].state); ids.append(anchors[0].id)
    }
    #expect(states.first == .detected && states.dropFirst().allSatisfy { $0 == .tracked })
    #expect(Set(ids) == [0] && detector.runs == 1)
    // The regressor breaks: the face is reported lost once, then found again by the detector with a new id.
    scene.broken = true
    let lost = tracker.process(image, timestampSeconds: 10.0 / 30)
    #expect(lost.map(\.state) == [.lost] && tracker.trackedFaceCount == 0)
    scene.broken = false
    let again = tracker.process(image, timestampSeconds: 11.0 / 30)
    // The detector ran on the frame of the loss (finding only garbage) and again on the next frame.
    #expect(again.map(\.state) == [.detected] && again[0].id == 1 && detector.runs == 3)
    // Anchor geometry: pupils project near the eye-contour centres, 3D landmarks sit at ~600 mm.
    let a = again[0]
    #expect(abs(a.translationMM.z - 600) < 60)
    #expect(a.landmarksCamera.count == 68 && a.eyeTransforms.count == 2 && a.pupils.count == 2)
    #expect(a.faceForward.z < -0.9)
}

@Test func keepsIdentitiesOfTwoFaces() throws {
    let scene = Scene(face: try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path))
    scene.poses = [RigidTransform(rotation: .identity, translation: SIMD3(-150, 0, 700)),
                   RigidTransform(rotation: .identity, translation: SIMD3(150, 0, 700))]
    let (tracker, _) = makeTracker(scene)
    var lastX: [Int: Double] = [:]
    for k in 0..<30 {
        // Both heads drift right; identities must follow them.
        scene.poses[0].translation.x = -150 + Double(k) * 2
        scene.poses[1].translation.x = 150 + Double(k) * 2
        let anchors = tracker.process(image, timestampSeconds: Double(k) / 30)
        #expect(anchors.count == 2)
        for a in anchors { lastX[a.id] = a.translationMM.x }
    }
    #expect(Set(lastX.keys) == [0, 1])
    #expect(abs(lastX[0]! - lastX[1]!) > 200)
}

@Test func smoothingCutsStillHeadJitterAndFollowsATurn() throws {
    let face = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    func run(smoothing: Bool) -> (jitter: Double, lagFrames: Int) {
        let scene = Scene(face: face)
        scene.poses = [RigidTransform(rotation: .identity, translation: SIMD3(0, 0, 600))]
        let (tracker, _) = makeTracker(scene, smoothing: smoothing)
        var yaw: [Double] = []
        // 60 still frames, then a 20° turn over 10 frames (60°/s), then still.
        for k in 0..<100 {
            let y = k < 60 ? 0.0 : min(20.0, Double(k - 60) * 2)
            scene.poses[0].rotation = EulerAngles(degreesPitch: 0, yaw: y, roll: 0).rotation
            yaw.append(tracker.process(image, timestampSeconds: Double(k) / 30)[0].rotationDegrees.y)
        }
        var second = 0.0
        for k in 11..<59 { second += abs(yaw[k + 1] - 2 * yaw[k] + yaw[k - 1]) }
        // Lag: frames after the truth reaches 10° until the estimate does.
        let truthHalf = 65, estimateHalf = (60..<100).first { yaw[$0] >= 10 } ?? 100
        return (second / 48, estimateHalf - truthHalf)
    }
    let raw = run(smoothing: false), smooth = run(smoothing: true)
    print("synthetic tracker: jitter raw \(raw.jitter)°, smoothed \(smooth.jitter)°; lag \(smooth.lagFrames) frames")
    #expect(smooth.jitter * 3 <= raw.jitter)
    #expect(smooth.lagFrames <= 2)
}
