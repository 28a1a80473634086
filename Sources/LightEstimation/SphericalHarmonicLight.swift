#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Distant light as second-order spherical harmonics: nine radiance coefficients L_lm per linear
/// RGB channel (Ramamoorthi & Hanrahan 2001, "An Efficient Representation for Irradiance
/// Environment Maps"). The irradiance on a surface with unit normal n is
/// E(n) = Σ Â_l L_lm Y_lm(n), Â = (π, 2π/3, π/4), within a few per cent of any distant light's
/// true irradiance — which is why nine numbers per channel are all a Lambertian face can reveal.
///
/// Contract: `self[k]` (and `coefficients[k]`) is the RGB coefficient of basis function k in the order
/// (l, m) = (0,0), (1,−1), (1,0), (1,1), (2,−2), (2,−1), (2,0), (2,1), (2,2) of the real basis
/// Y_00 = 0.282095, Y_1−1 = 0.488603 y, Y_10 = 0.488603 z, Y_11 = 0.488603 x,
/// Y_2−2 = 1.092548 xy, Y_2−1 = 1.092548 yz, Y_20 = 0.315392 (3z² − 1), Y_21 = 1.092548 xz,
/// Y_22 = 0.546274 (x² − y²) (the order and normalisation of ARKit's and Unity's coefficient
/// sets), with (x, y, z) a unit direction towards the light in camera space (x right, y down,
/// z forward, the tracker's frame). Units are relative (see `LightEstimate`): radiance 1 from every
/// direction lights a surface so that it reads its own albedo.
///
/// The nine coefficients are stored inline (no heap storage): estimates are made, smoothed and
/// copied every frame without allocating. `coefficients` builds an array for callers that want one.
public struct SphericalHarmonicLight: Sendable, Equatable {
    public static let count = 9
    /// Â_l / π per coefficient: E(n)/π = Σ band[k] L_k Y_k(n).
    public static let band: [Float] = [1, 2.0 / 3, 2.0 / 3, 2.0 / 3, 0.25, 0.25, 0.25, 0.25, 0.25]

    private typealias Nine = (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>,
                              SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    private var storage: Nine = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)

    /// Coefficient k (0..<9, order as in the type's contract).
    public subscript(k: Int) -> SIMD3<Float> {
        get {
            precondition(k >= 0 && k < Self.count, "spherical-harmonic index out of range")
            return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: k * MemoryLayout<SIMD3<Float>>.stride, as: SIMD3<Float>.self) }
        }
        set {
            precondition(k >= 0 && k < Self.count, "spherical-harmonic index out of range")
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: k * MemoryLayout<SIMD3<Float>>.stride, as: SIMD3<Float>.self) }
        }
    }

    /// The nine coefficients as an array (allocates; `self[k]` does not).
    public var coefficients: [SIMD3<Float>] {
        get { (0..<Self.count).map { self[$0] } }
        set {
            precondition(newValue.count == Self.count, "second-order spherical harmonics have 9 coefficients")
            for k in 0..<Self.count { self[k] = newValue[k] }
        }
    }

    public init(coefficients: [SIMD3<Float>]) {
        precondition(coefficients.count == Self.count, "second-order spherical harmonics have 9 coefficients")
        for k in 0..<Self.count { self[k] = coefficients[k] }
    }

    /// Coefficient k is `coefficient(k)`, for k = 0..<9.
    @inline(__always) public init(_ coefficient: (Int) -> SIMD3<Float>) {
        for k in 0..<Self.count { self[k] = coefficient(k) }
    }

    public static let zero = SphericalHarmonicLight { _ in .zero }

    public static func == (a: SphericalHarmonicLight, b: SphericalHarmonicLight) -> Bool {
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }

    /// The nine basis functions at unit direction `d`.
    @inline(__always) public static func basis(_ d: SIMD3<Float>) -> (Float, Float, Float, Float, Float, Float, Float, Float, Float) {
        (0.282095, 0.488603 * d.y, 0.488603 * d.z, 0.488603 * d.x,
         1.092548 * d.x * d.y, 1.092548 * d.y * d.z, 0.315392 * (3 * d.z * d.z - 1), 1.092548 * d.x * d.z,
         0.546274 * (d.x * d.x - d.y * d.y))
    }

    /// The basis functions in lanes 0..<9 (the rest zero), for indexed loops without an array.
    @inline(__always) static func basisLanes(_ d: SIMD3<Float>) -> SIMD16<Float> {
        let b = basis(d)
        return SIMD16<Float>(b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7, b.8, 0, 0, 0, 0, 0, 0, 0)
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
        let b = basisLanes(u)
        var l = SphericalHarmonicLight { k in color * b[k] }
        l[0] += ambient * (2 * Float.pi.squareRoot())
        return l
    }

    /// E(n)/π: what a white Lambertian surface with unit normal `n` reflects.
    public func diffuse(normal n: SIMD3<Float>) -> SIMD3<Float> {
        let b = Self.basisLanes(n)
        var e = SIMD3<Float>.zero
        for k in 0..<Self.count { e += self[k] * (b[k] * Self.band[k]) }
        return e
    }

    /// Radiance arriving from unit direction `d` (the band-limited environment).
    public func radiance(from d: SIMD3<Float>) -> SIMD3<Float> {
        let b = Self.basisLanes(d)
        var e = SIMD3<Float>.zero
        for k in 0..<Self.count { e += self[k] * b[k] }
        return e
    }

    /// ARKit's `sphericalHarmonicsCoefficients` layout: 27 floats, three non-interleaved sets of
    /// nine (red, then green, then blue).
    public var arkitCoefficients: [Float] {
        let c = coefficients
        return c.map(\.x) + c.map(\.y) + c.map(\.z)
    }

    /// Relative difference ‖a − b‖ / ‖b‖ over all 27 numbers.
    public func relativeError(to reference: SphericalHarmonicLight) -> Float {
        var num: Float = 0, den: Float = 0
        for k in 0..<Self.count {
            let d = self[k] - reference[k]
            num += (d * d).sum()
            den += (reference[k] * reference[k]).sum()
        }
        return den > 0 ? (num / den).squareRoot() : num.squareRoot()
    }

    /// a + (b − a)·t, coefficient-wise.
    public func mixed(with other: SphericalHarmonicLight, _ t: Float) -> SphericalHarmonicLight {
        SphericalHarmonicLight { k in self[k] + (other[k] - self[k]) * t }
    }
}
