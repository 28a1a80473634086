/// Brown–Conrady lens distortion with three radial and two tangential terms, in OpenCV's convention
/// (its first five `distCoeffs`, in its order k1, k2, p1, p2, k3), acting on *normalised* image
/// coordinates (x/z, y/z):
/// `x_d = x(1 + k1 r² + k2 r⁴ + k3 r⁶) + 2 p1 x y + p2 (r² + 2x²)`,
/// `y_d = y(1 + k1 r² + k2 r⁴ + k3 r⁶) + p1 (r² + 2y²) + 2 p2 x y`.
/// Encoded without `k3` it decodes with k3 = 0 (files written before k3 existed).
public struct LensDistortion: Sendable, Equatable, Codable {
    public var k1: Double
    public var k2: Double
    public var p1: Double
    public var p2: Double
    public var k3: Double

    public init(k1: Double = 0, k2: Double = 0, p1: Double = 0, p2: Double = 0, k3: Double = 0) {
        self.k1 = k1; self.k2 = k2; self.p1 = p1; self.p2 = p2; self.k3 = k3
    }

    private enum CodingKeys: String, CodingKey { case k1, k2, p1, p2, k3 }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(k1: try c.decode(Double.self, forKey: .k1), k2: try c.decode(Double.self, forKey: .k2),
                  p1: try c.decode(Double.self, forKey: .p1), p2: try c.decode(Double.self, forKey: .p2),
                  k3: try c.decodeIfPresent(Double.self, forKey: .k3) ?? 0)
    }

    public static let none = LensDistortion()
    public var isNone: Bool { k1 == 0 && k2 == 0 && p1 == 0 && p2 == 0 && k3 == 0 }

    public func distort(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let x = p.x, y = p.y
        let r2 = x * x + y * y
        let radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        return SIMD2(x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x),
                     y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y)
    }

    /// Inverts `distort` by fixed-point iteration (as OpenCV's `undistortPoints`); converges for the
    /// moderate distortion of webcams. Returns the best iterate after at most 20 steps.
    public func undistort(_ pd: SIMD2<Double>) -> SIMD2<Double> {
        if isNone { return pd }
        var p = pd
        for _ in 0..<20 {
            let x = p.x, y = p.y
            let r2 = x * x + y * y
            let radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
            let dx = 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            let dy = p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
            let next = SIMD2((pd.x - dx) / radial, (pd.y - dy) / radial)
            let step = next - p
            p = next
            if (step * step).sum() < 1e-24 { break }
        }
        return p
    }
}
