import Foundation

/// Thin-plate spline R² → R (Bookstein 1989), slightly regularised.
public struct ThinPlateSpline {
    let centres: [SIMD2<Double>]
    let w: [Double]
    let a: (Double, Double, Double)

    static func u(_ r2: Double) -> Double { r2 > 0 ? 0.5 * r2 * log(r2) : 0 }

    public init(centres: [SIMD2<Double>], values: [Double], lambda: Double = 1e-2) {
        let n = centres.count
        var m = [[Double]](repeating: [Double](repeating: 0, count: n + 4), count: n + 3)
        for i in 0..<n {
            for j in 0..<n {
                let d = centres[i] - centres[j]
                m[i][j] = Self.u((d * d).sum()) + (i == j ? lambda : 0)
            }
            m[i][n] = 1; m[i][n + 1] = centres[i].x; m[i][n + 2] = centres[i].y
            m[n][i] = 1; m[n + 1][i] = centres[i].x; m[n + 2][i] = centres[i].y
            m[i][n + 3] = values[i]
        }
        let size = n + 3
        for c in 0..<size {
            let p = (c..<size).max { abs(m[$0][c]) < abs(m[$1][c]) }!
            m.swapAt(c, p)
            for r in 0..<size where r != c {
                let f = m[r][c] / m[c][c]
                if f != 0 { for k in c...size { m[r][k] -= f * m[c][k] } }
            }
        }
        let s = (0..<size).map { m[$0][size] / m[$0][$0] }
        self.centres = centres
        self.w = Array(s[0..<n])
        self.a = (s[n], s[n + 1], s[n + 2])
    }

    public func callAsFunction(_ p: SIMD2<Double>) -> Double {
        var v = a.0 + a.1 * p.x + a.2 * p.y
        for i in centres.indices {
            let d = p - centres[i]
            v += w[i] * Self.u((d * d).sum())
        }
        return v
    }
}
