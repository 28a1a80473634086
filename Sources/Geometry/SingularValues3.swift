/// The singular value decomposition `m = u · diag(values) · vᵀ` of a 3x3 matrix, from the symmetric
/// eigen-decomposition of `mᵀm`. Singular values are non-negative and descending; `u` and `v` are
/// orthogonal (when `m` is rank-deficient the missing columns of `u` are completed orthonormally).
/// Precision: squaring in `mᵀm` resolves singular values only down to ≈ 1e-8 of the largest, which is
/// ample for the nearest-rotation and Kabsch uses here (well-conditioned 3x3 problems).
public struct SingularValues3: Sendable {
    public let u: Matrix3
    public let values: SIMD3<Double>
    public let v: Matrix3

    public init(_ m: Matrix3) {
        let eig = SymmetricEigen3(m.transposed * m)
        let v = eig.vectors
        let s = SIMD3(max(0, eig.values.x).squareRoot(), max(0, eig.values.y).squareRoot(), max(0, eig.values.z).squareRoot())
        let scale = max(s.x, 1e-300)
        var u0 = s.x > 1e-12 * scale ? (m * v.c0) / s.x : SIMD3(1, 0, 0)
        u0 = u0.normalized
        // Below 1e-7 of the largest singular value the column m·v is rounding noise (the eigenvalues
        // of mᵀm carry squared errors), so the basis is completed instead.
        var u1 = s.y > 1e-7 * scale ? (m * v.c1) / s.y : .zero
        u1 = u1 - u0 * u0.dot(u1)
        if u1.length < 1e-6 {
            let helper: SIMD3<Double> = abs(u0.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
            u1 = u0.cross(helper)
        }
        u1 = u1.normalized
        var u2 = u0.cross(u1)
        if s.z > 1e-7 * scale, u2.dot(m * v.c2) < 0 { u2 = -u2 }
        self.u = Matrix3(columns: u0, u1, u2)
        self.values = s
        self.v = v
    }
}
