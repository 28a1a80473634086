import Anchors
import FaceTracking
import Geometry
import Imaging
import LightEstimation
import PoseEstimation
import Testing

/// `minimumIntervalSeconds`: a face measured less than that long ago keeps its estimate (the frame is
/// not read), a face due again is measured, and a new face is measured at once.
@Test func lightIntervalSkipsRecentFacesOnly() throws {
    let c = LightEstimatorTests.cases[1]
    let pose = SyntheticFaceScene.pose(yawDegrees: c.yaw, pitchDegrees: c.pitch)
    let lit = SyntheticFaceScene.render(SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading, ambient: c.ambient), pose: pose)
    let dim = SyntheticFaceScene.render(SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading * 0.5, ambient: c.ambient * 0.5), pose: pose)
    let intrinsics = SyntheticFaceScene.intrinsics, face = SyntheticFaceScene.face
    let landmarks = face.landmarks.map { p -> SIMD2<Float> in
        let q = intrinsics.project(pose.apply(p))
        return SIMD2(Float(q.x), Float(q.y))
    }
    let fit = PoseEstimate(cameraFromModel: pose, reprojectionRMSPx: 0, weightedRMSPx: 0, confidence: 1, iterations: 0)
    func anchor(_ id: Int) -> FaceAnchor {
        FaceTracker.anchor(id: id, time: 0, state: .tracked, cameraFromFace: pose, landmarks: landmarks, face: face, camera: intrinsics, pose: fit)
    }
    let tracker = LightTracker(estimator: SyntheticFaceScene.estimator, timeConstantSeconds: 0.5)
    tracker.minimumIntervalSeconds = 0.1
    var list: [LightTracker.FaceLight] = []
    tracker.process([anchor(1)], image: lit, intrinsics: intrinsics, timestampSeconds: 0, into: &list)
    let first = try #require(list.first?.estimate)
    // 33 ms later, on a darker frame: not measured, the estimate stays.
    tracker.process([anchor(1), anchor(2)], image: dim, intrinsics: intrinsics, timestampSeconds: 0.033, into: &list)
    #expect(list.count == 2 && list[0].estimate == first)
    // ...but face 2, new, was measured on the darker frame.
    let second = try #require(list.last?.estimate)
    #expect(second.ambientIntensity < first.ambientIntensity)
    // 120 ms after its last measurement face 1 is measured again and moves towards the darker light.
    tracker.process([anchor(1), anchor(2)], image: dim, intrinsics: intrinsics, timestampSeconds: 0.12, into: &list)
    #expect(list[0].estimate.ambientIntensity < first.ambientIntensity)
}
