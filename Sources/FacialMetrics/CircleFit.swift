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
        points.withUnsafeBufferPointer { fit($0) }
    }

    /// `fit(_:)` over a buffer (no allocation).
    public static func fit(_ points: UnsafeBufferPointer<SIMD2<Double>>) -> Circle? {
        guard points.count >= 3 else { return nil }
        var total = SIMD2<Double>.zero
        for p in points { total = total + p }
        let mean = total / Double(points.count)
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sx = 0.0, sy = 0.0, sz = 0.0, sxz = 0.0, syz = 0.0
        let n = Double(points.count)
        for q in points {
            let p = q - mean
            let z = p.x * p.x + p.y * p.y
            sxx += p.x * p.x; sxy += p.x * p.y; syy += p.y * p.y
            sx += p.x; sy += p.y; sz += z; sxz += p.x * z; syz += p.y * z
        }
        // Normal equations of [x y 1]·[D E F]ᵀ = −z.
        guard let s = solve3(RowMatrix3(sxx, sxy, sx, sxy, syy, sy, sx, sy, n), SIMD3(-sxz, -syz, -sz)) else { return nil }
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

/// A 3×3 matrix, row-major (`m[r][c]`), for `solve3`.
struct RowMatrix3 {
    var m: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double) {
        m = (SIMD3(a, b, c), SIMD3(d, e, f), SIMD3(g, h, i))
    }
    subscript(r: Int) -> SIMD3<Double> {
        get { r == 0 ? m.0 : (r == 1 ? m.1 : m.2) }
        set { if r == 0 { m.0 = newValue } else if r == 1 { m.1 = newValue } else { m.2 = newValue } }
    }
    var determinant: Double {
        let a = m.0, b = m.1, c = m.2
        return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])
    }
}

/// Cramer's rule for a 3x3 system; nil when singular.
func solve3(_ a: RowMatrix3, _ b: SIMD3<Double>) -> SIMD3<Double>? {
    let d = a.determinant
    var scale = 0.0
    for r in 0..<3 { for c in 0..<3 { scale = max(scale, abs(a[r][c])) } }
    guard abs(d) > 1e-12 * scale * scale * scale, d.isFinite else { return nil }
    var out = SIMD3<Double>.zero
    for c in 0..<3 {
        var m = a
        for r in 0..<3 { m[r][c] = b[r] }
        out[c] = m.determinant / d
    }
    return out
}
