import CBLAS

/// Ridge-regularised linear least squares from sufficient statistics:
/// `W = argmin ‖X W − Y‖² + λ ‖D W‖²`, solved as `(XᵀX + λ D) W = XᵀY` by Cholesky (LAPACK `dposv`,
/// in double precision because the Gram matrix of image descriptors is badly conditioned).
///
/// `D` is the identity except on the rows listed in `unpenalized` (the bias column), which are not shrunk.
public enum RidgeRegression {
    public struct SolveError: Error, CustomStringConvertible {
        public let description: String
    }

    /// - Parameters:
    ///   - gram: `XᵀX`, full symmetric `F x F` (upper triangle is read).
    ///   - cross: `XᵀY`, `F x K`.
    ///   - lambda: ridge strength, in the units of the Gram diagonal.
    /// - Returns: `W`, `F x K`.
    public static func solve(gram: Matrix, cross: Matrix, lambda: Float, unpenalized: Set<Int> = []) throws -> Matrix {
        let f = gram.rows
        precondition(gram.cols == f && cross.rows == f, "ridge sizes disagree")
        var a = gram.values.map(Double.init)
        for i in 0..<f where !unpenalized.contains(i) { a[i * f + i] += Double(lambda) }
        // An unpenalised row still needs a tiny jitter in case its feature never varies.
        for i in unpenalized { a[i * f + i] += 1e-6 * max(1, a[i * f + i]) }
        var b = cross.values.map(Double.init)
        let k = cross.cols
        let info = LAPACKE_dposv(LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "U")), Int32(f), Int32(k), &a, Int32(f), &b, Int32(k))
        guard info == 0 else {
            throw SolveError(description: info > 0 ? "ridge system not positive definite (leading minor \(info)); raise lambda"
                                                   : "LAPACKE_dposv rejected argument \(-info)")
        }
        return Matrix(rows: f, cols: k, values: b.map(Float.init))
    }
}
