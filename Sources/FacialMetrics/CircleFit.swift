/// A circle in the image plane (pixels, pixel-centre convention).
public struct Circle: Sendable, Equatable {
    public var centre: SIMD2<Double>
    public var radius: Double

    public init(centre: SIMD2<Double>, radius: Double) {
        self.centre = centre
        self.radius = radius
    }

    /// Algebraic least-squares circle through `points` (Kåsa, "A circle fitting procedure and its
    /// error analysis", IEEE Trans. Instrum. Meas. 1976): minimises Σ (x² + y² + D x + E y + F)².
    /// Coordinates are centred first for conditioning. Nil for fewer than three points or collinear ones.
    public static func fit(_ points: [SIMD2<Double>]) -> Circle? {
        guard points.count >= 3 else { return nil }
        let mean = points.reduce(SIMD2<Double>.zero, +) / Double(points.count)
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sx = 0.0, sy = 0.0, sz = 0.0, sxz = 0.0, syz = 0.0
        let n = Double(points.count)
        for q in points {
            let p = q - mean
            let z = p.x * p.x + p.y * p.y
            sxx += p.x * p.x; sxy += p.x * p.y; syy += p.y * p.y
            sx += p.x; sy += p.y; sz += z; sxz += p.x * z; syz += p.y * z
        }
        // Normal equations of [x y 1]·[D E F]ᵀ = −z.
        let a: [[Double]] = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, n]]
        let b: [Double] = [-sxz, -syz, -sz]
        guard let s = solve3(a, b) else { return nil }
        let cx = -s[0] / 2, cy = -s[1] / 2
        let r2 = cx * cx + cy * cy - s[2]
        guard r2 > 0, r2.isFinite else { return nil }
        return Circle(centre: SIMD2(cx, cy) + mean, radius: r2.squareRoot())
    }

    /// Signed distance of `p` from the circle (positive outside).
    public func residual(_ p: SIMD2<Double>) -> Double {
        let d = p - centre
        return (d * d).sum().squareRoot() - radius
    }
}

/// Cramer's rule for a 3x3 system; nil when singular.
func solve3(_ a: [[Double]], _ b: [Double]) -> [Double]? {
    func det(_ m: [[Double]]) -> Double {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }
    let d = det(a)
    let scale = a.flatMap { $0 }.map { abs($0) }.max() ?? 0
    guard abs(d) > 1e-12 * scale * scale * scale, d.isFinite else { return nil }
    var out = [Double](repeating: 0, count: 3)
    for c in 0..<3 {
        var m = a
        for r in 0..<3 { m[r][c] = b[r] }
        out[c] = det(m) / d
    }
    return out
}
