import CBLAS

/// Matrix products on the system BLAS (cblas): the training workhorse. All matrices are row-major.
public enum BLAS {
    /// Limits the BLAS runtime to `threads` threads when it is OpenBLAS (no-op on the reference BLAS).
    /// Returns whether the request was honoured.
    @discardableResult
    public static func setThreads(_ threads: Int) -> Bool {
        lorgnette_blas_set_threads(Int32(threads)) != 0
    }

    /// The BLAS runtime's self-description (e.g. "OpenBLAS 0.3.21 ..."), or "unknown".
    public static var provider: String { String(cString: lorgnette_blas_provider()) }

    /// `op(A) * op(B)`, where `op` transposes when asked.
    public static func multiply(_ a: Matrix, transposeA: Bool = false, _ b: Matrix, transposeB: Bool = false) -> Matrix {
        let m = transposeA ? a.cols : a.rows
        let k = transposeA ? a.rows : a.cols
        let kb = transposeB ? b.cols : b.rows
        let n = transposeB ? b.rows : b.cols
        precondition(k == kb, "inner dimensions differ: \(k) vs \(kb)")
        var c = Matrix(rows: m, cols: n)
        guard m > 0, n > 0, k > 0 else { return c }
        a.values.withUnsafeBufferPointer { pa in
            b.values.withUnsafeBufferPointer { pb in
                c.values.withUnsafeMutableBufferPointer { pc in
                    cblas_sgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
                                Int32(m), Int32(n), Int32(k), 1, pa.baseAddress, Int32(a.cols), pb.baseAddress, Int32(b.cols),
                                0, pc.baseAddress, Int32(n))
                }
            }
        }
        return c
    }

    /// `C += Aᵀ A` over the rows `rows` of `a` (all rows by default), on the upper triangle of the
    /// square `c` (`c.rows == a.cols`); the lower triangle is left untouched. Call
    /// `symmetrizeUpper` before using `c` as a full matrix.
    public static func accumulateGram(_ c: inout Matrix, _ a: Matrix, rows: Range<Int>? = nil) {
        precondition(c.rows == a.cols && c.cols == a.cols, "gram size \(c.rows)x\(c.cols) for \(a.cols) columns")
        let r = rows ?? 0..<a.rows
        precondition(r.lowerBound >= 0 && r.upperBound <= a.rows, "row range outside the matrix")
        guard !r.isEmpty else { return }
        a.values.withUnsafeBufferPointer { pa in
            c.values.withUnsafeMutableBufferPointer { pc in
                cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, Int32(a.cols), Int32(r.count), 1,
                            pa.baseAddress! + r.lowerBound * a.cols, Int32(a.cols), 1, pc.baseAddress, Int32(c.cols))
            }
        }
    }

    /// `C += Aᵀ B` over the rows `rows` of both (`c` is `a.cols x b.cols`).
    public static func accumulateCross(_ c: inout Matrix, _ a: Matrix, _ b: Matrix, rows: Range<Int>? = nil) {
        precondition(a.rows == b.rows && c.rows == a.cols && c.cols == b.cols, "cross product sizes disagree")
        let r = rows ?? 0..<a.rows
        precondition(r.lowerBound >= 0 && r.upperBound <= a.rows, "row range outside the matrix")
        guard !r.isEmpty else { return }
        a.values.withUnsafeBufferPointer { pa in
            b.values.withUnsafeBufferPointer { pb in
                c.values.withUnsafeMutableBufferPointer { pc in
                    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(a.cols), Int32(b.cols), Int32(r.count), 1,
                                pa.baseAddress! + r.lowerBound * a.cols, Int32(a.cols), pb.baseAddress! + r.lowerBound * b.cols,
                                Int32(b.cols), 1, pc.baseAddress, Int32(c.cols))
                }
            }
        }
    }

    /// `A[rows] · B` (`a.cols == b.rows`).
    public static func multiply(_ a: Matrix, rows: Range<Int>, _ b: Matrix) -> Matrix {
        precondition(a.cols == b.rows && rows.lowerBound >= 0 && rows.upperBound <= a.rows, "product sizes disagree")
        var c = Matrix(rows: rows.count, cols: b.cols)
        guard !rows.isEmpty, b.cols > 0, a.cols > 0 else { return c }
        a.values.withUnsafeBufferPointer { pa in
            b.values.withUnsafeBufferPointer { pb in
                c.values.withUnsafeMutableBufferPointer { pc in
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows.count), Int32(b.cols), Int32(a.cols), 1,
                                pa.baseAddress! + rows.lowerBound * a.cols, Int32(a.cols), pb.baseAddress, Int32(b.cols),
                                0, pc.baseAddress, Int32(b.cols))
                }
            }
        }
        return c
    }

    /// Copies the upper triangle onto the lower one.
    public static func symmetrizeUpper(_ c: inout Matrix) {
        let n = c.rows
        c.values.withUnsafeMutableBufferPointer { p in
            for r in 0..<n { for col in (r + 1)..<max(r + 1, n) { p[col * n + r] = p[r * n + col] } }
        }
    }
}
