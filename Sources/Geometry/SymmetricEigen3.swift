/// Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (Golub & Van Loan §8.5).
/// `values` are in descending order and `vectors` holds the matching unit eigenvectors as columns
/// (`m ≈ vectors * diag(values) * vectorsᵀ`). Only the upper triangle of the input is read.
public struct SymmetricEigen3: Sendable {
    public let values: SIMD3<Double>
    public let vectors: Matrix3

    public init(_ m: Matrix3) {
        var a = [[m[0, 0], m[0, 1], m[0, 2]], [m[0, 1], m[1, 1], m[1, 2]], [m[0, 2], m[1, 2], m[2, 2]]]
        var v = [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
        for _ in 0..<50 {
            let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
            let scale = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]
            if off <= 1e-30 * max(scale, 1e-300) { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<3 {
                    let akp = a[k][p], akq = a[k][q]
                    a[k][p] = c * akp - s * akq
                    a[k][q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[p][k], aqk = a[q][k]
                    a[p][k] = c * apk - s * aqk
                    a[q][k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[k][p], vkq = v[k][q]
                    v[k][p] = c * vkp - s * vkq
                    v[k][q] = s * vkp + c * vkq
                }
            }
        }
        let order = [0, 1, 2].sorted { a[$0][$0] > a[$1][$1] }
        values = SIMD3(a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]])
        let col = { (j: Int) in SIMD3(v[0][j], v[1][j], v[2][j]) }
        vectors = Matrix3(columns: col(order[0]), col(order[1]), col(order[2]))
    }
}
