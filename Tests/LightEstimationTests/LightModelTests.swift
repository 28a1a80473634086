import Foundation
import LightEstimation
import Rendering
import Testing

@Suite struct LightModelTests {
    @Test func whiteIsSixtyFiveHundredKelvin() throws {
        let k = try #require(ColorTemperature.kelvin(of: SIMD3<Float>(1, 1, 1)))
        #expect(abs(k - 6504) < 10)
        #expect(ColorTemperature.kelvin(of: .zero) == nil)
    }

    @Test func blackBodyRoundTrip() throws {
        for kelvin in stride(from: Float(2800), through: 8000, by: 400) {
            let rgb = ColorTemperature.rgb(kelvin: kelvin)
            #expect(abs(ColorTemperature.luminance(rgb) - 1) < 0.02)
            let back = try #require(ColorTemperature.kelvin(of: rgb))
            #expect(abs(back - kelvin) < 60, "\(kelvin) K read back as \(back) K")
        }
        // Warm light is redder than cool light.
        #expect(ColorTemperature.rgb(kelvin: 3000).x > ColorTemperature.rgb(kelvin: 7000).x)
    }

    @Test func directionalLightIrradianceMatchesTheRenderer() {
        let light = SphericalHarmonicLight.directional(towardsLight: [0.3, -0.5, -0.8], color: [1.2, 1.0, 0.8], ambient: [0.1, 0.2, 0.3])
        let rendering = IrradianceSH(radiance: light.coefficients)
        for n: SIMD3<Float> in [[0, 0, -1], [1, 0, 0], [0, -1, 0], [0.6, 0.0, -0.8], [-0.48, 0.6, -0.64]] {
            let a = light.diffuse(normal: n), b = rendering.diffuse(normal: n)
            #expect(((a - b) * (a - b)).sum().squareRoot() < 1e-4)
        }
        // Facing the light: within the 9-term approximation's error of the exact E/π = color/π + ambient.
        let facing = light.diffuse(normal: simd_normalize_([0.3, -0.5, -0.8]))
        let exact = SIMD3<Float>(1.2, 1.0, 0.8) / .pi + SIMD3<Float>(0.1, 0.2, 0.3)
        #expect(((facing - exact) / exact).max() < 0.1)
    }

    @Test func estimateReportsDirectionIntensityAndTemperature() {
        let d = simd_normalize_([-0.4, -0.5, -0.77])
        let light = SphericalHarmonicLight.directional(towardsLight: d, color: ColorTemperature.rgb(kelvin: 4000) * .pi, ambient: .zero)
        let e = LightEstimate(light: light, sampleCount: 1)
        // ARKit's convention: the direction the light travels.
        #expect(((e.primaryLightDirection + d) * (e.primaryLightDirection + d)).sum() < 1e-6)
        #expect(abs(e.primaryLightIntensity - 1000) < 1)
        #expect(abs(e.ambientColorTemperature - 4000) < 100)
        #expect(e.sphericalHarmonicsCoefficients.count == 27)
        #expect(e.sphericalHarmonicsCoefficients[9] == light.coefficients[0].y)
        // Uniform white radiance 1: a camera-facing surface reads its albedo, ambient 1000.
        let uniform = SphericalHarmonicLight.directional(towardsLight: [0, 0, -1], color: .zero, ambient: [1, 1, 1])
        #expect(abs(LightEstimate(light: uniform, sampleCount: 1).ambientIntensity - 1000) < 1)
    }

    @Test func smoothingFollowsSlowlyAndResetsOnLoss() {
        let tracker = LightTracker(estimator: SyntheticFaceScene.estimator, timeConstantSeconds: 0.5)
        let a = LightEstimate(light: .directional(towardsLight: [0, 0, -1], color: .zero, ambient: [1, 1, 1]), sampleCount: 100)
        let b = LightEstimate(light: .directional(towardsLight: [0, 0, -1], color: .zero, ambient: [0.5, 0.5, 0.5]), sampleCount: 100)
        #expect(abs((tracker.update(faceID: 1, measurement: a, timestampSeconds: 0)?.ambientIntensity ?? 0) - 1000) < 0.01)
        // After one time constant of the new light, 1 − 1/e of the way there.
        var last: Float = 1000
        for i in 1...15 { last = tracker.update(faceID: 1, measurement: b, timestampSeconds: Double(i) / 30)?.ambientIntensity ?? .nan }
        #expect(abs(last - (1000 - 500 * (1 - exp(-1)))) < 5)
        // A frame without a fit keeps the estimate.
        #expect(tracker.update(faceID: 1, measurement: nil, timestampSeconds: 0.6)?.ambientIntensity == last)
        tracker.reset(faceID: 1)
        #expect(tracker.update(faceID: 1, measurement: nil, timestampSeconds: 0.7) == nil)
        #expect(abs((tracker.update(faceID: 1, measurement: b, timestampSeconds: 0.8)?.ambientIntensity ?? 0) - 500) < 0.01)
    }
}

func simd_normalize_(_ v: SIMD3<Float>) -> SIMD3<Float> { v / (v * v).sum().squareRoot() }
