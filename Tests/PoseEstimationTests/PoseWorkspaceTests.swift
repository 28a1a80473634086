import FaceModel
import Foundation
import Geometry
import PoseEstimation
import Testing

/// `FacePoseEstimator` reuses one workspace (taken under a lock; a busy one means a private one):
/// the Float and Double forms, repeated calls and concurrent callers all get the same answers.
@Test func poseEstimatesAreRepeatableAndThreadSafe() async throws {
    let face = try MeanFace(contentsOf: meanFacePath)
    var distorted = CameraIntrinsics(horizontalFOVDegrees: 60, width: 640, height: 480)
    distorted.distortion = LensDistortion(k1: -0.1, k2: 0.02)
    let camera = distorted
    let estimator = FacePoseEstimator(face: face)
    var g = SplitMix(state: 77)
    var inputs: [(landmarks: [SIMD2<Float>], previous: RigidTransform?)] = []
    for k in 0..<8 {
        let truth = RigidTransform(rotation: EulerAngles(degreesPitch: .random(in: -20...20, using: &g), yaw: .random(in: -40...40, using: &g),
                                                         roll: .random(in: -15...15, using: &g)).rotation,
                                   translation: SIMD3(.random(in: -60...60, using: &g), .random(in: -40...40, using: &g), .random(in: 450...800, using: &g)))
        let points = face.landmarks.map { p -> SIMD2<Float> in
            let q = camera.project(truth.apply(p))
            return SIMD2(Float(q.x + 1.5 * g.normal()), Float(q.y + 1.5 * g.normal()))
        }
        // Half from a nearby previous pose (tracking), half cold.
        let previous = k % 2 == 0 ? RigidTransform(rotation: truth.rotation * Rotation(rotationVector: SIMD3(0.02, -0.03, 0.01)),
                                                   translation: truth.translation + SIMD3(3, -2, 10)) : nil
        inputs.append((points, previous))
    }
    let serial = inputs.map { estimator.estimate(landmarks: $0.landmarks, camera: camera, previous: $0.previous) }
    for (i, input) in inputs.enumerated() {
        let doubles = input.landmarks.map { SIMD2(Double($0.x), Double($0.y)) }
        #expect(estimator.estimate(landmarks: doubles, camera: camera, previous: input.previous) == serial[i])
        #expect(estimator.estimate(landmarks: input.landmarks, camera: camera, previous: input.previous) == serial[i])
        #expect(serial[i] != nil)
    }
    let frozen = inputs
    let parallel = await withTaskGroup(of: (Int, PoseEstimate?).self) { group in
        for round in 0..<64 {
            let i = round % frozen.count
            group.addTask { (i, estimator.estimate(landmarks: frozen[i].landmarks, camera: camera, previous: frozen[i].previous)) }
        }
        var all: [(Int, PoseEstimate?)] = []
        for await r in group { all.append(r) }
        return all
    }
    #expect(parallel.count == 64)
    for (i, e) in parallel { #expect(e == serial[i]) }
    // Wrong point counts and non-finite points are refused, not solved.
    #expect(estimator.estimate(landmarks: Array(inputs[0].landmarks.prefix(67)), camera: camera) == nil)
    var broken = inputs[0].landmarks
    broken[30] = SIMD2(.nan, 0)
    #expect(estimator.estimate(landmarks: broken, camera: camera) == nil)
}
