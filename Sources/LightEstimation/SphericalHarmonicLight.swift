/// Distant light as second-order spherical harmonics: nine radiance coefficients L_lm per linear
/// RGB channel (Ramamoorthi & Hanrahan 2001, "An Efficient Representation for Irradiance
/// Environment Maps"). The irradiance on a surface with unit normal n is
/// E(n) = Σ Â_l L_lm Y_lm(n), Â = (π, 2π/3, π/4), within a few per cent of any distant light's
/// true irradiance — which is why nine numbers per channel are all a Lambertian face can reveal.
///
/// Contract: `coefficients[k]` is the RGB coefficient of basis function k in the order
/// (l, m) = (0,0), (1,−1), (1,0), (1,1), (2,−2), (2,−1), (2,0), (2,1), (2,2) of the real basis
/// Y_00 = 0.282095, Y_1−1 = 0.488603 y, Y_10 = 0.488603 z, Y_11 = 0.488603 x,
/// Y_2−2 = 1.092548 xy, Y_2−1 = 1.092548 yz, Y_20 = 0.315392 (3z² − 1), Y_21 = 1.092548 xz,
/// Y_22 = 0.546274 (x² − y²) (the order and normalisation of ARKit's and Unity's coefficient
/// sets), with (x, y, z) a unit direction towards the light in camera space (x right, y down,
/// z forward, the tracker's frame). Units are relative (see `LightEstimate`): radiance 1 from every
/// direction lights a surface so that it reads its own albedo.
public struct SphericalHarmonicLight: Sendable, Equatable {
    public static let count = 9
    /// Â_l / π per coefficient: E(n)/π = Σ band[k] L_k Y_k(n).
    public static let band: [Float] = [1, 2.0 / 3, 2.0 / 3, 2.0 / 3, 0.25, 0.25, 0.25, 0.25, 0.25]

    public var coefficients: [SIMD3<Float>]

    public init(coefficients: [SIMD3<Float>]) {
        precondition(coefficients.count == Self.count, "second-order spherical harmonics have 9 coefficients")
        self.coefficients = coefficients
    }

    public static let zero = SphericalHarmonicLight(coefficients: Array(repeating: .zero, count: count))

    /// The nine basis functions at unit direction `d`.
    @inline(__always) public static func basis(_ d: SIMD3<Float>) -> (Float, Float, Float, Float, Float, Float, Float, Float, Float) {
        (0.282095, 0.488603 * d.y, 0.488603 * d.z, 0.488603 * d.x,
         1.092548 * d.x * d.y, 1.092548 * d.y * d.z, 0.315392 * (3 * d.z * d.z - 1), 1.092548 * d.x * d.z,
         0.546274 * (d.x * d.x - d.y * d.y))
    }

    public static func basisArray(_ d: SIMD3<Float>) -> [Float] {
        let b = basis(d)
        return [b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7, b.8]
    }

    /// A directional light arriving from unit direction `towardsLight` that gives irradiance `color`
    /// (relative units, per channel) on a surface facing it, plus uniform radiance `ambient` from
    /// every direction: L_lm = color · Y_lm(d), L_00 += ambient · 2√π.
    public static func directional(towardsLight d: SIMD3<Float>, color: SIMD3<Float>, ambient: SIMD3<Float> = .zero) -> SphericalHarmonicLight {
        let u = d / (d * d).sum().squareRoot()
        var l = basisArray(u).map { color * $0 }
        l[0] += ambient * (2 * Float.pi.squareRoot())
        return SphericalHarmonicLight(coefficients: l)
    }

    /// E(n)/π: what a white Lambertian surface with unit normal `n` reflects.
    public func diffuse(normal n: SIMD3<Float>) -> SIMD3<Float> {
        let b = Self.basisArray(n)
        var e = SIMD3<Float>.zero
        for k in 0..<Self.count { e += coefficients[k] * (b[k] * Self.band[k]) }
        return e
    }

    /// Radiance arriving from unit direction `d` (the band-limited environment).
    public func radiance(from d: SIMD3<Float>) -> SIMD3<Float> {
        let b = Self.basisArray(d)
        var e = SIMD3<Float>.zero
        for k in 0..<Self.count { e += coefficients[k] * b[k] }
        return e
    }

    /// ARKit's `sphericalHarmonicsCoefficients` layout: 27 floats, three non-interleaved sets of
    /// nine (red, then green, then blue).
    public var arkitCoefficients: [Float] {
        coefficients.map(\.x) + coefficients.map(\.y) + coefficients.map(\.z)
    }

    /// Relative difference ‖a − b‖ / ‖b‖ over all 27 numbers.
    public func relativeError(to reference: SphericalHarmonicLight) -> Float {
        var num: Float = 0, den: Float = 0
        for k in 0..<Self.count {
            let d = coefficients[k] - reference.coefficients[k]
            num += (d * d).sum()
            den += (reference.coefficients[k] * reference.coefficients[k]).sum()
        }
        return den > 0 ? (num / den).squareRoot() : num.squareRoot()
    }

    /// a + (b − a)·t, coefficient-wise.
    public func mixed(with other: SphericalHarmonicLight, _ t: Float) -> SphericalHarmonicLight {
        SphericalHarmonicLight(coefficients: (0..<Self.count).map { coefficients[$0] + (other.coefficients[$0] - coefficients[$0]) * t })
    }
}
