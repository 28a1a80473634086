import Meshes

/// The light the shaders see, in camera space (see `PinholeCamera`), linear RGB.
///
/// Diffuse light is either `irradiance` (second-order spherical harmonics, e.g. estimated from the
/// tracked face by `LightEstimation`) or, when that is nil, an `ambient` term plus one directional
/// light. `direction` (unit, from the surface towards the light) and `color` also drive the
/// specular highlight in both cases; `sky` and `ground` are the two-colour environment (above and
/// below, in the image's up direction) that lenses and metals reflect. Colours are scaled so that
/// a white Lambertian surface facing the light reads `diffuse(normal:)`, 1 being the frame's white.
/// Diffuse light is evaluated per vertex (see `SceneRenderer`), specular light per pixel.
public struct Lighting: Sendable {
    public var ambient: SIMD3<Float>
    public var direction: SIMD3<Float>
    public var color: SIMD3<Float>
    public var sky: SIMD3<Float>
    public var ground: SIMD3<Float>
    public var irradiance: IrradianceSH?
    /// The sharpest highlight this light may make (a cap on the Blinn-Phong exponent of every
    /// material). A known small lamp allows glints; a light that is only known as a broad lobe
    /// (an order-2 spherical-harmonic estimate cannot tell a lamp from a window) must not be
    /// mirrored as a pin-point.
    public var maxShininess: Float

    public init(ambient: SIMD3<Float>, direction: SIMD3<Float>, color: SIMD3<Float>, sky: SIMD3<Float>, ground: SIMD3<Float>,
                irradiance: IrradianceSH? = nil, maxShininess: Float = 4096) {
        self.ambient = ambient
        self.direction = simdNormalize(direction)
        self.color = color
        self.sky = sky
        self.ground = ground
        self.irradiance = irradiance
        self.maxShininess = max(1, maxShininess)
    }

    /// A soft studio light: key light above-left of the camera, bright sky, grey floor. The neutral
    /// light of `--light fixed`.
    public static let studio = Lighting(ambient: [0.32, 0.32, 0.34], direction: [-0.35, -0.6, -0.72], color: [0.95, 0.93, 0.9],
                                        sky: [0.85, 0.88, 0.95], ground: [0.18, 0.17, 0.16])

    /// Diffuse light reflected by a white Lambertian surface with unit normal `n`.
    @inline(__always) public func diffuse(normal n: SIMD3<Float>) -> SIMD3<Float> {
        if let irradiance { return irradiance.diffuse(normal: n) }
        return ambient + color * max(0, (n * direction).sum())
    }

    /// `diffuse(normal: -n)`.
    @inline(__always) func diffuseBehind(normal n: SIMD3<Float>) -> SIMD3<Float> {
        if let irradiance { return irradiance.diffuseBehind(normal: n) }
        return ambient + color * max(0, -(n * direction).sum())
    }

    /// Environment colour seen along camera-space direction `d` (unit).
    @inline(__always) func environment(_ d: SIMD3<Float>) -> SIMD3<Float> {
        // Camera y points down: -y is up. A soft horizon band keeps reflections readable.
        let t = min(max(0.5 - 1.2 * d.y, 0), 1)
        return ground + (sky - ground) * (t * t * (3 - 2 * t))
    }
}
