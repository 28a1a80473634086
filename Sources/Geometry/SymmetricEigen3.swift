/// Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (Golub & Van Loan §8.5).
/// `values` are in descending order and `vectors` holds the matching unit eigenvectors as columns
/// (`m ≈ vectors * diag(values) * vectorsᵀ`). Only the upper triangle of the input is read.
/// The working matrices live on the stack (it runs inside per-frame pose solves): no allocation.
public struct SymmetricEigen3: Sendable {
    public let values: SIMD3<Double>
    public let vectors: Matrix3

    public init(_ m: Matrix3) {
        // a (row-major 3x3) then v (row-major 3x3): 144 bytes, stack-allocated.
        let (values, vectors) = withUnsafeTemporaryAllocation(of: Double.self, capacity: 18) { buffer -> (SIMD3<Double>, Matrix3) in
            let a = buffer.baseAddress!, v = a + 9
            a[0] = m[0, 0]; a[1] = m[0, 1]; a[2] = m[0, 2]
            a[3] = m[0, 1]; a[4] = m[1, 1]; a[5] = m[1, 2]
            a[6] = m[0, 2]; a[7] = m[1, 2]; a[8] = m[2, 2]
            for k in 0..<9 { v[k] = k % 4 == 0 ? 1 : 0 }
            for _ in 0..<50 {
                let off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
                let scale = a[0] * a[0] + a[4] * a[4] + a[8] * a[8]
                if off <= 1e-30 * max(scale, 1e-300) { break }
                for pair in 0..<3 {
                    let p = pair == 2 ? 1 : 0, q = pair == 0 ? 1 : 2
                    guard a[p * 3 + q] != 0 else { continue }
                    let theta = (a[q * 3 + q] - a[p * 3 + p]) / (2 * a[p * 3 + q])
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<3 {
                        let akp = a[k * 3 + p], akq = a[k * 3 + q]
                        a[k * 3 + p] = c * akp - s * akq
                        a[k * 3 + q] = s * akp + c * akq
                    }
                    for k in 0..<3 {
                        let apk = a[p * 3 + k], aqk = a[q * 3 + k]
                        a[p * 3 + k] = c * apk - s * aqk
                        a[q * 3 + k] = s * apk + c * aqk
                    }
                    for k in 0..<3 {
                        let vkp = v[k * 3 + p], vkq = v[k * 3 + q]
                        v[k * 3 + p] = c * vkp - s * vkq
                        v[k * 3 + q] = s * vkp + c * vkq
                    }
                }
            }
            // Descending diagonal; a stable insertion sort of the three indices (ties keep their order).
            var order = SIMD3<Int>(0, 1, 2)
            for i in 1..<3 {
                var j = i
                while j > 0 && a[order[j] * 4] > a[order[j - 1] * 4] {
                    let swap = order[j]; order[j] = order[j - 1]; order[j - 1] = swap
                    j -= 1
                }
            }
            let (i0, i1, i2) = (order[0], order[1], order[2])
            return (SIMD3(a[i0 * 4], a[i1 * 4], a[i2 * 4]),
                    Matrix3(columns: SIMD3(v[i0], v[3 + i0], v[6 + i0]), SIMD3(v[i1], v[3 + i1], v[6 + i1]),
                            SIMD3(v[i2], v[3 + i2], v[6 + i2])))
        }
        self.values = values
        self.vectors = vectors
    }
}
