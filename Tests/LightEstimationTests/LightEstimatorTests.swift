import Foundation
import Geometry
import Imaging
import LightEstimation
import Rendering
import Testing

/// The synthetic ground-truth bars: a Lambertian head rendered with known spherical-harmonic
/// light (several directions, colours, intensities); the estimate's primary direction within 10°,
/// SH coefficients within 10 % (relative, all 27), colour temperature within 300 K (3000–7500 K).
@Suite struct LightEstimatorTests {
    struct Case: CustomStringConvertible, Sendable {
        var towardsLight: SIMD3<Float>
        var kelvin: Float
        var reading: Float
        var ambient: Float
        var yaw: Double
        var pitch: Double
        var description: String { "light \(towardsLight) \(Int(kelvin)) K, yaw \(yaw)°" }
    }

    static let cases: [Case] = [
        Case(towardsLight: [-0.4, -0.5, -0.77], kelvin: 6500, reading: 0.45, ambient: 0.35, yaw: 0, pitch: 0),
        Case(towardsLight: [0.7, -0.2, -0.68], kelvin: 3000, reading: 0.35, ambient: 0.25, yaw: 15, pitch: 0),
        Case(towardsLight: [0.0, 0.35, -0.94], kelvin: 4500, reading: 0.4, ambient: 0.3, yaw: -10, pitch: 5),
        Case(towardsLight: [-0.85, 0.1, -0.3], kelvin: 7500, reading: 0.5, ambient: 0.3, yaw: -20, pitch: -5),
        Case(towardsLight: [0.3, -0.8, -0.5], kelvin: 5200, reading: 0.6, ambient: 0.25, yaw: 5, pitch: 10),
    ]

    @Test(arguments: cases)
    func recoversKnownLight(_ c: Case) throws {
        let truth = SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading, ambient: c.ambient)
        let pose = SyntheticFaceScene.pose(yawDegrees: c.yaw, pitchDegrees: c.pitch)
        let image = SyntheticFaceScene.render(truth, pose: pose)
        let estimate = try #require(SyntheticFaceScene.estimator.estimate(image: image, cameraFromFace: pose, intrinsics: SyntheticFaceScene.intrinsics))
        let reference = LightEstimate(light: truth, sampleCount: 0)
        let angle = SyntheticFaceScene.angleDegrees(estimate.towardsLight, c.towardsLight)
        let error = estimate.light.relativeError(to: truth)
        print("\(c): direction error \(angle)°, SH error \(error * 100) %, \(estimate.ambientColorTemperature) K (truth \(reference.ambientColorTemperature) K), ambient \(estimate.ambientIntensity) (truth \(reference.ambientIntensity)), \(estimate.sampleCount) samples")
        #expect(estimate.sampleCount > 150)
        #expect(angle <= 10)
        #expect(error <= 0.10)
        #expect(abs(estimate.ambientColorTemperature - c.kelvin) <= 300)
        #expect(abs(estimate.ambientIntensity - reference.ambientIntensity) <= 0.05 * reference.ambientIntensity)
    }

    @Test func rejectsHairAndHighlights() throws {
        let c = Self.cases[0]
        let truth = SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading, ambient: c.ambient)
        let pose = SyntheticFaceScene.pose()
        var image = SyntheticFaceScene.render(truth, pose: pose)
        // Dark "hair" over the upper forehead and a clipped highlight on one cheek.
        let top = SyntheticFaceScene.intrinsics.project(pose.apply(SIMD3(0, -58, 0)))
        let brow = SyntheticFaceScene.intrinsics.project(pose.apply(SIMD3(0, -42, 0)))
        for y in Int(top.y) - 40...Int(brow.y) { for x in 200...440 { image.pixels.replaceSubrange((3 * (y * 640 + x))..<(3 * (y * 640 + x) + 3), with: [40, 30, 25]) } }
        let cheek = SyntheticFaceScene.intrinsics.project(pose.apply(SIMD3(-34, 28, 0)))
        for y in Int(cheek.y) - 12...Int(cheek.y) + 12 { for x in Int(cheek.x) - 12...Int(cheek.x) + 12 {
            image.pixels.replaceSubrange((3 * (y * 640 + x))..<(3 * (y * 640 + x) + 3), with: [255, 255, 255])
        } }
        let estimate = try #require(SyntheticFaceScene.estimator.estimate(image: image, cameraFromFace: pose, intrinsics: SyntheticFaceScene.intrinsics))
        let angle = SyntheticFaceScene.angleDegrees(estimate.towardsLight, c.towardsLight)
        let error = estimate.light.relativeError(to: truth)
        print("occluded: direction error \(angle)°, SH error \(error * 100) %, \(estimate.sampleCount) samples")
        #expect(angle <= 10)
        #expect(error <= 0.10)
    }

    @Test func noFaceNoEstimate() {
        let black = RGBImage(width: 640, height: 480)
        #expect(SyntheticFaceScene.estimator.estimate(image: black, cameraFromFace: SyntheticFaceScene.pose(), intrinsics: SyntheticFaceScene.intrinsics) == nil)
        let truth = SyntheticFaceScene.light(towardsLight: [0, 0, -1], kelvin: 6500, reading: 0.5, ambient: 0.3)
        let image = SyntheticFaceScene.render(truth, pose: SyntheticFaceScene.pose())
        // Facing away from the camera: no skin sample is visible.
        let away = SyntheticFaceScene.pose(yawDegrees: 180)
        #expect(SyntheticFaceScene.estimator.estimate(image: image, cameraFromFace: away, intrinsics: SyntheticFaceScene.intrinsics) == nil)
    }

    @Test func scaledIntrinsicsReadTheSamePixels() throws {
        let truth = SyntheticFaceScene.light(towardsLight: [-0.4, -0.5, -0.77], kelvin: 5000, reading: 0.45, ambient: 0.3)
        let pose = SyntheticFaceScene.pose()
        let image = SyntheticFaceScene.render(truth, pose: pose)
        let full = try #require(SyntheticFaceScene.estimator.estimate(image: image, cameraFromFace: pose, intrinsics: SyntheticFaceScene.intrinsics))
        let half = SyntheticFaceScene.intrinsics.scaled(toWidth: 320, height: 240)
        let fromHalf = try #require(SyntheticFaceScene.estimator.estimate(image: image, cameraFromFace: pose, intrinsics: half))
        #expect(fromHalf.light.relativeError(to: full.light) < 0.02)
    }
}
