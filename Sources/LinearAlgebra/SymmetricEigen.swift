import CBLAS

/// Eigen-decomposition of a small symmetric matrix (LAPACK `dsyev`), largest eigenvalue first.
public enum SymmetricEigen {
    /// Returns eigenvalues in decreasing order and the matching unit eigenvectors as the *columns*
    /// of `vectors` (`n x n`).
    public static func decompose(_ m: Matrix) throws -> (values: [Float], vectors: Matrix) {
        let n = m.rows
        precondition(m.cols == n, "eigen-decomposition needs a square matrix")
        var a = m.values.map(Double.init)
        var w = [Double](repeating: 0, count: n)
        let info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "U")), Int32(n), &a, Int32(n), &w)
        guard info == 0 else { throw RidgeRegression.SolveError(description: "LAPACKE_dsyev failed (info \(info))") }
        // dsyev sorts ascending; flip to descending.
        var vectors = Matrix(rows: n, cols: n)
        for c in 0..<n { for r in 0..<n { vectors.values[r * n + c] = Float(a[r * n + (n - 1 - c)]) } }
        return (w.reversed().map(Float.init), vectors)
    }
}
