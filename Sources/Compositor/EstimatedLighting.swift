import LightEstimation
import Rendering

/// How the try-on lights the glasses: `fixed` is the neutral studio light (`Lighting.studio`), the
/// same on every frame, for comparison; `estimated` uses each face's `LightEstimate`.
public enum LightingMode: String, Sendable, CaseIterable {
    case fixed, estimated
}

extension Lighting {
    /// The renderer's light for a face's estimate: diffuse light is the estimate's
    /// spherical-harmonic irradiance (per vertex), the specular highlight comes from its primary
    /// light (direction and colour of the first-order band), and the two-colour environment that
    /// metals and lenses reflect is the irradiance/π an upward and a downward surface receive
    /// (a blurred view of the room above and below). Units match the estimate's (a camera-facing
    /// surface of albedo ρ reads ρ × its light), so the glasses are exposed like the face.
    /// Second-order harmonics blur any light into a lobe about 60° wide, so the estimate cannot
    /// say whether the key light is a lamp or a window: its highlights are kept broad (exponent
    /// ≤ 48, about ±15°) instead of inventing a lamp's pin-point glint on every lens.
    public init(estimate: LightEstimate) {
        let light = estimate.light
        func clamp(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(max(c.x, 0), max(c.y, 0), max(c.z, 0)) }
        self.init(ambient: clamp(light.diffuse(normal: [0, 0, -1])), direction: estimate.towardsLight, color: estimate.primaryLightColor,
                  sky: clamp(light.diffuse(normal: [0, -1, 0])), ground: clamp(light.diffuse(normal: [0, 1, 0])),
                  irradiance: IrradianceSH { light[$0] }, maxShininess: 48)
    }
}
