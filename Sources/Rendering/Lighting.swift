import Meshes

/// The light the shaders see, in camera space (see `PinholeCamera`), linear RGB: an ambient term,
/// one directional light (`direction` points from the surface towards the light) and a two-colour
/// environment (sky above, ground below, in the image's up direction) that lenses and metals
/// reflect. The lighting-estimation stage will later fit the ambient and directional parts from
/// the video as low-order spherical harmonics.
public struct Lighting: Sendable {
    public var ambient: SIMD3<Float>
    public var direction: SIMD3<Float>
    public var color: SIMD3<Float>
    public var sky: SIMD3<Float>
    public var ground: SIMD3<Float>

    public init(ambient: SIMD3<Float>, direction: SIMD3<Float>, color: SIMD3<Float>, sky: SIMD3<Float>, ground: SIMD3<Float>) {
        self.ambient = ambient
        self.direction = simdNormalize(direction)
        self.color = color
        self.sky = sky
        self.ground = ground
    }

    /// A soft studio light: key light above-left of the camera, bright sky, grey floor.
    public static let studio = Lighting(ambient: [0.32, 0.32, 0.34], direction: [-0.35, -0.6, -0.72], color: [0.95, 0.93, 0.9],
                                        sky: [0.85, 0.88, 0.95], ground: [0.18, 0.17, 0.16])

    /// Environment colour seen along camera-space direction `d` (unit).
    @inline(__always) func environment(_ d: SIMD3<Float>) -> SIMD3<Float> {
        // Camera y points down: -y is up. A soft horizon band keeps reflections readable.
        let t = min(max(0.5 - 1.2 * d.y, 0), 1)
        return ground + (sky - ground) * (t * t * (3 - 2 * t))
    }
}
