/// A dense row-major matrix of `Float` (element (r, c) at `values[r * cols + c]`).
///
/// The storage is what BLAS/LAPACK see: row-major with leading dimension `cols`.
public struct Matrix: Sendable, Equatable {
    public let rows: Int
    public let cols: Int
    public var values: [Float]

    public init(rows: Int, cols: Int, fill: Float = 0) {
        precondition(rows >= 0 && cols >= 0, "negative matrix size")
        self.rows = rows
        self.cols = cols
        self.values = [Float](repeating: fill, count: rows * cols)
    }

    public init(rows: Int, cols: Int, values: [Float]) {
        precondition(values.count == rows * cols, "\(values.count) values do not fill \(rows)x\(cols)")
        self.rows = rows
        self.cols = cols
        self.values = values
    }

    public static func identity(_ n: Int) -> Matrix {
        var m = Matrix(rows: n, cols: n)
        for i in 0..<n { m.values[i * n + i] = 1 }
        return m
    }

    @inlinable public subscript(r: Int, c: Int) -> Float {
        get { values[r * cols + c] }
        set { values[r * cols + c] = newValue }
    }

    public var transposed: Matrix {
        var t = Matrix(rows: cols, cols: rows)
        for r in 0..<rows { for c in 0..<cols { t.values[c * rows + r] = values[r * cols + c] } }
        return t
    }

    /// Rows `range` as a new matrix.
    public func rows(_ range: Range<Int>) -> Matrix {
        Matrix(rows: range.count, cols: cols, values: Array(values[(range.lowerBound * cols)..<(range.upperBound * cols)]))
    }
}
