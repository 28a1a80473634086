/// A smoothing thin-plate spline height field z(x, y) through scattered points (Duchon 1977;
/// Bookstein 1989): z = a0 + a1·x + a2·y + Σ w_i φ(|p − p_i|) with φ(r) = r² log r, the
/// interpolant of least bending energy. `smoothing` (λ, in the units of φ) trades exact
/// interpolation for a smoother surface. Solved once by Gaussian elimination with partial
/// pivoting; evaluation returns the height and its gradient (for surface normals).
struct ThinPlateSpline: Sendable {
    let centres: [SIMD2<Double>]
    let weights: [Double]
    let affine: SIMD3<Double>

    init?(points: [SIMD3<Double>], smoothing: Double = 0) {
        let n = points.count
        guard n >= 3 else { return nil }
        let m = n + 3
        var a = [Double](repeating: 0, count: m * m)
        var b = [Double](repeating: 0, count: m)
        for i in 0..<n {
            for j in 0..<n {
                let d = SIMD2(points[i].x - points[j].x, points[i].y - points[j].y)
                a[i * m + j] = Self.kernel((d * d).sum())
            }
            a[i * m + i] += smoothing
            let row: [Double] = [1, points[i].x, points[i].y]
            for k in 0..<3 { a[i * m + n + k] = row[k]; a[(n + k) * m + i] = row[k] }
            b[i] = points[i].z
        }
        guard let x = Self.solve(&a, &b, m) else { return nil }
        centres = points.map { SIMD2($0.x, $0.y) }
        weights = Array(x[0..<n])
        affine = SIMD3(x[n], x[n + 1], x[n + 2])
    }

    /// φ as a function of the squared distance: r² log r = ½ r² log r².
    @inline(__always) static func kernel(_ r2: Double) -> Double { r2 > 0 ? 0.5 * r2 * log(r2) : 0 }

    /// Height and its partial derivatives (∂z/∂x, ∂z/∂y) at (x, y).
    func evaluate(x: Double, y: Double) -> (z: Double, gradient: SIMD2<Double>) {
        var z = affine.x + affine.y * x + affine.z * y
        var g = SIMD2(affine.y, affine.z)
        for (c, w) in zip(centres, weights) {
            let d = SIMD2(x - c.x, y - c.y)
            let r2 = (d * d).sum()
            guard r2 > 0 else { continue }
            z += w * Self.kernel(r2)
            // d/dx (½ r² log r²) = x (log r² + 1)
            g += d * (w * (log(r2) + 1))
        }
        return (z, g)
    }

    /// Solves the m×m system in place (row-major); nil when singular.
    static func solve(_ a: inout [Double], _ b: inout [Double], _ m: Int) -> [Double]? {
        for col in 0..<m {
            var pivot = col
            for r in (col + 1)..<m where abs(a[r * m + col]) > abs(a[pivot * m + col]) { pivot = r }
            guard abs(a[pivot * m + col]) > 1e-12 else { return nil }
            if pivot != col {
                for k in 0..<m { a.swapAt(col * m + k, pivot * m + k) }
                b.swapAt(col, pivot)
            }
            let inv = 1 / a[col * m + col]
            for r in (col + 1)..<m {
                let f = a[r * m + col] * inv
                guard f != 0 else { continue }
                for k in col..<m { a[r * m + k] -= f * a[col * m + k] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: m)
        for r in stride(from: m - 1, through: 0, by: -1) {
            var s = b[r]
            for k in (r + 1)..<m { s -= a[r * m + k] * x[k] }
            x[r] = s / a[r * m + r]
        }
        return x
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
