import FaceData
import Foundation
import Geometry
import Rendering

/// How one synthetic person is photographed: pose, distance, lens, light, blur, noise and JPEG
/// quality, each drawn uniformly over what a webcam or phone session shows and the gate admits.
///
/// Ranges: rendered yaw ±12°, pitch ±8° (inside the 15°/10° gate with room for the tracker's own
/// pose error), roll ±4°, distance 400–700 mm, face off-centre by up to ±40 × ±30 mm, horizontal
/// field of view 50–70°, key light from anywhere in front (ambient 0.15–0.40, key 0.6–1.0, warm to
/// cool), defocus 0–1 px SD, motion blur 0–3 px, sensor noise 0–3 grey levels, JPEG quality 60–95.
public struct SyntheticShot: Sendable {
    public var yawDegrees: Double
    public var pitchDegrees: Double
    public var rollDegrees: Double
    public var distanceMM: Double
    public var offsetMM: SIMD2<Double>
    public var fovDegrees: Double
    public var lighting: Lighting
    public var degradation: CameraDegradation
    public var jpegQuality: Int

    /// The face's pose in camera space (face frame as `MeanFace`: x image-right, y down, z into the head).
    public var cameraFromFace: RigidTransform {
        RigidTransform(rotation: EulerAngles(degreesPitch: pitchDegrees, yaw: yawDegrees, roll: rollDegrees).rotation,
                       translation: SIMD3(offsetMM.x, offsetMM.y, distanceMM))
    }

    public func camera(width: Int, height: Int) -> CameraIntrinsics {
        CameraIntrinsics(horizontalFOVDegrees: fovDegrees, width: width, height: height)
    }

    public static func draw(_ rng: inout SplitMix64) -> SyntheticShot {
        let az = rng.uniform(-60, 60) * .pi / 180, el = rng.uniform(-50, 30) * .pi / 180
        // Towards the light, camera space (as `Lighting.studio`): a key light on the camera's side has z < 0.
        let direction = SIMD3<Float>(Float(sin(az) * cos(el)), Float(sin(el)), Float(-cos(az) * cos(el)))
        let key = Float(rng.uniform(0.6, 1.0)), warmth = Float(rng.uniform(-0.08, 0.08))
        let ambient = Float(rng.uniform(0.15, 0.40))
        let lighting = Lighting(ambient: [ambient, ambient, ambient * 1.04], direction: direction,
                                color: [key * (1 + warmth), key, key * (1 - warmth)], sky: [0.8, 0.85, 0.9], ground: [0.2, 0.2, 0.2])
        var degradation = CameraDegradation()
        degradation.blurSigmaPx = rng.uniform(0, 1)
        degradation.motionLengthPx = rng.uniform(0, 3)
        degradation.motionAngleDegrees = rng.uniform(0, 180)
        degradation.noiseSD = rng.uniform(0, 3)
        degradation.noiseSeed = rng.next()
        return SyntheticShot(yawDegrees: rng.uniform(-12, 12), pitchDegrees: rng.uniform(-8, 8), rollDegrees: rng.uniform(-4, 4),
                             distanceMM: rng.uniform(400, 700), offsetMM: SIMD2(rng.uniform(-40, 40), rng.uniform(-30, 30)),
                             fovDegrees: rng.uniform(50, 70), lighting: lighting, degradation: degradation,
                             jpegQuality: Int(rng.uniform(60, 96)))
    }
}
