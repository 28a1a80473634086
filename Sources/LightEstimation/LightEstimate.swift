/// The scene's light as estimated from one tracked face, in the shape of ARKit's
/// `ARDirectionalLightEstimate` (Apple, ARKit: `sphericalHarmonicsCoefficients`,
/// `primaryLightDirection`, `primaryLightIntensity`, plus `ARLightEstimate`'s `ambientIntensity`
/// and `ambientColorTemperature`).
///
/// Frame: camera space of the tracker (x right, y down, z forward, OpenCV). Intensities are
/// RELATIVE: a face's brightness is albedo times light, and the two cannot be separated from one
/// image, so the estimator assumes a reference skin albedo (`LightEstimator.skinAlbedo`, the
/// ColorChecker "light skin" patch) and reports light relative to the camera's exposure: 1000 means
/// a camera-facing surface of that albedo reads its own albedo, i.e. a neutral, well-exposed scene
/// (ARKit's 1000 lumen "neutral"); darker skin reads as dimmer (and slightly warmer) light.
/// - `light`: radiance spherical harmonics (see `SphericalHarmonicLight`; unit 1 = the radiance
///   that lights a surface to its albedo from every direction).
/// - `primaryLightDirection`: unit vector along which the primary light travels (from the light
///   towards the face), as ARKit reports it; `towardsLight` is its negation. From the first-order
///   band, luminance-weighted: L_1 ∝ (L_11, L_1−1, L_10) = (x, y, z) of the dominant direction.
/// - `primaryLightIntensity`: 1000 × the irradiance/π of the directional light the first-order
///   band amounts to (|L_1| / 0.488603 / π), luminance.
/// - `ambientIntensity`: 1000 × the luminance of E(n)/π for a surface facing the camera (n = −z):
///   what the camera's exposure sees on the face.
/// - `ambientColorTemperature`: CCT (kelvin, McCamy) of that same camera-facing light's colour;
///   6500 K for white (sRGB D65) light.
public struct LightEstimate: Sendable, Equatable {
    public var light: SphericalHarmonicLight
    public var primaryLightDirection: SIMD3<Float>
    public var primaryLightIntensity: Float
    public var ambientIntensity: Float
    public var ambientColorTemperature: Float
    /// Skin samples the fit used (after rejection).
    public var sampleCount: Int
    /// True for an estimate from a gray frame (`LightEstimator.estimate(gray:...)`): the light is
    /// neutral by construction and `ambientColorTemperature` (6504 K) is not a measurement.
    public var isLuminanceOnly = false

    public init(light: SphericalHarmonicLight, sampleCount: Int) {
        self.light = light
        self.sampleCount = sampleCount
        let l = light
        let lum = { (c: SIMD3<Float>) in ColorTemperature.luminance(c) }
        let band1 = SIMD3<Float>(lum(l[3]), lum(l[1]), lum(l[2]))
        let length = (band1 * band1).sum().squareRoot()
        primaryLightDirection = length > 1e-9 ? -band1 / length : SIMD3<Float>(0, 1, 0)
        primaryLightIntensity = 1000 * length / 0.488603 / Float.pi
        let front = light.diffuse(normal: SIMD3<Float>(0, 0, -1))
        ambientIntensity = 1000 * max(0, lum(front))
        ambientColorTemperature = ColorTemperature.kelvin(of: SIMD3<Float>(max(front.x, 0), max(front.y, 0), max(front.z, 0))) ?? 6500
    }

    /// Unit vector from the face towards the primary light (camera space).
    public var towardsLight: SIMD3<Float> { -primaryLightDirection }

    /// ARKit's `sphericalHarmonicsCoefficients`: 27 floats, nine red, nine green, nine blue.
    public var sphericalHarmonicsCoefficients: [Float] { light.arkitCoefficients }

    /// RGB irradiance/π of the primary light (per channel: the first-order band projected on the
    /// primary direction), for a renderer's key light; non-negative.
    public var primaryLightColor: SIMD3<Float> {
        let l = light, d = towardsLight
        let c = (l[3] * d.x + l[1] * d.y + l[2] * d.z) / 0.488603 / Float.pi
        return SIMD3<Float>(max(c.x, 0), max(c.y, 0), max(c.z, 0))
    }
}
