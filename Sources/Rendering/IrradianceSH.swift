import Meshes

/// Diffuse light as second-order spherical harmonics: the nine radiance coefficients L_lm per
/// colour channel of the light arriving from all directions, and the irradiance they produce on a
/// surface (Ramamoorthi & Hanrahan 2001, "An Efficient Representation for Irradiance Environment
/// Maps": E(n) = Σ Â_l L_lm Y_lm(n) with Â_0 = π, Â_1 = 2π/3, Â_2 = π/4, within a few per cent of
/// the exact irradiance of any distant light).
///
/// Contract: `radiance` holds 9 linear-RGB coefficients in the order (l, m) = (0,0), (1,−1), (1,0),
/// (1,1), (2,−2), (2,−1), (2,0), (2,1), (2,2) of the real basis Y_00 = 0.282095,
/// Y_1−1 = 0.488603 y, Y_10 = 0.488603 z, Y_11 = 0.488603 x, Y_2−2 = 1.092548 xy,
/// Y_2−1 = 1.092548 yz, Y_20 = 0.315392 (3z² − 1), Y_21 = 1.092548 xz, Y_22 = 0.546274 (x² − y²),
/// where (x, y, z) is a unit direction towards the light in camera space (x right, y down,
/// z forward; see `PinholeCamera`). `diffuse(normal:)` is E(n)/π, the colour a white Lambertian
/// surface with unit normal n reflects: multiply by a base colour to shade.
public struct IrradianceSH: Sendable, Equatable {
    // E(n)/π as a polynomial in the normal's components: evaluated once per vertex. Only these are
    // stored (no coefficient array), so a light built every frame costs no allocation.
    let k0: SIMD3<Float>, kx: SIMD3<Float>, ky: SIMD3<Float>, kz: SIMD3<Float>
    let kxy: SIMD3<Float>, kyz: SIMD3<Float>, kxz: SIMD3<Float>, kzz: SIMD3<Float>, kxxyy: SIMD3<Float>

    public init(radiance: [SIMD3<Float>]) {
        precondition(radiance.count == 9, "second-order spherical harmonics have 9 coefficients")
        self.init { radiance[$0] }
    }

    /// The same from a function giving coefficient `k` (0...8, the order above) of a light held elsewhere.
    public init(radiance l: (Int) -> SIMD3<Float>) {
        let a1: Float = 2.0 / 3.0, a2: Float = 0.25 // Â_l / π
        let c0: Float = 0.282095, c1: Float = 0.488603, c2: Float = 1.092548, c20: Float = 0.315392, c22: Float = 0.546274
        k0 = l(0) * c0 - l(6) * (a2 * c20)
        ky = l(1) * (a1 * c1)
        kz = l(2) * (a1 * c1)
        kx = l(3) * (a1 * c1)
        kxy = l(4) * (a2 * c2)
        kyz = l(5) * (a2 * c2)
        kzz = l(6) * (a2 * c20 * 3)
        kxz = l(7) * (a2 * c2)
        kxxyy = l(8) * (a2 * c22)
    }

    /// E(n)/π for a unit normal `n` (camera space): the light a white Lambertian surface reflects.
    @inline(__always) public func diffuse(normal n: SIMD3<Float>) -> SIMD3<Float> {
        var e = k0 + kx * n.x + ky * n.y + kz * n.z
        e += kxy * (n.x * n.y) + kyz * (n.y * n.z) + kxz * (n.x * n.z)
        e += kzz * (n.z * n.z) + kxxyy * (n.x * n.x - n.y * n.y)
        return e
    }

    /// The same light as seen by a surface facing the other way: E(−n)/π (odd terms change sign).
    @inline(__always) func diffuseBehind(normal n: SIMD3<Float>) -> SIMD3<Float> {
        var e = k0 - kx * n.x - ky * n.y - kz * n.z
        e += kxy * (n.x * n.y) + kyz * (n.y * n.z) + kxz * (n.x * n.z)
        e += kzz * (n.z * n.z) + kxxyy * (n.x * n.x - n.y * n.y)
        return e
    }

    /// Radiance coefficients of a directional light arriving from unit direction `d` (towards the
    /// light) with irradiance `color` on a surface facing it, plus a uniform `ambient` radiance.
    public static func directional(_ d: SIMD3<Float>, color: SIMD3<Float>, ambient: SIMD3<Float> = .zero) -> IrradianceSH {
        let u = simdNormalize(d)
        let basis = basisValues(u)
        var l = basis.map { color * $0 }
        l[0] += ambient * (2 * Float.pi.squareRoot()) // ∫ a Y_00 dω = a · 0.282095 · 4π
        return IrradianceSH(radiance: l)
    }

    /// The nine basis functions Y_lm at unit direction `d`, in this type's order.
    public static func basisValues(_ d: SIMD3<Float>) -> [Float] {
        [0.282095, 0.488603 * d.y, 0.488603 * d.z, 0.488603 * d.x,
         1.092548 * d.x * d.y, 1.092548 * d.y * d.z, 0.315392 * (3 * d.z * d.z - 1), 1.092548 * d.x * d.z,
         0.546274 * (d.x * d.x - d.y * d.y)]
    }
}
