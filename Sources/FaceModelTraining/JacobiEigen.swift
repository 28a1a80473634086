/// Eigen-decomposition of a small dense symmetric matrix (row-major, n×n) by cyclic Jacobi sweeps.
/// Used by the mean-face builder on 68×68 and 6×6 problems, where its O(n³) per sweep is
/// negligible and it keeps FaceModel free of LAPACK. Values descending, vectors as columns.
struct JacobiEigen {
    let values: [Double]
    /// `vectors[k]` is the unit eigenvector for `values[k]`.
    let vectors: [[Double]]

    init(_ matrix: [Double], n: Int) {
        var a = matrix
        var v = [Double](repeating: 0, count: n * n)
        for i in 0..<n { v[i * n + i] = 1 }
        for _ in 0..<100 {
            var off = 0.0, diag = 0.0
            for i in 0..<n {
                diag += a[i * n + i] * a[i * n + i]
                for j in (i + 1)..<n { off += a[i * n + j] * a[i * n + j] }
            }
            if off <= 1e-26 * max(diag, 1e-300) { break }
            for p in 0..<n {
                for q in (p + 1)..<n {
                    let apq = a[p * n + q]
                    if abs(apq) < 1e-300 { continue }
                    let theta = (a[q * n + q] - a[p * n + p]) / (2 * apq)
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<n {
                        let akp = a[k * n + p], akq = a[k * n + q]
                        a[k * n + p] = c * akp - s * akq
                        a[k * n + q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let apk = a[p * n + k], aqk = a[q * n + k]
                        a[p * n + k] = c * apk - s * aqk
                        a[q * n + k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let vkp = v[k * n + p], vkq = v[k * n + q]
                        v[k * n + p] = c * vkp - s * vkq
                        v[k * n + q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0 * n + $0] > a[$1 * n + $1] }
        values = order.map { a[$0 * n + $0] }
        vectors = order.map { j in (0..<n).map { v[$0 * n + j] } }
    }
}
