/// A 3x3 matrix of `Double`, stored as three rows. Acts on column vectors: `m * v`.
public struct Matrix3: Sendable, Equatable {
    public var r0: SIMD3<Double>
    public var r1: SIMD3<Double>
    public var r2: SIMD3<Double>

    public init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init(rows: SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    public static let identity = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
    public static let zero = Matrix3(rows: .zero, .zero, .zero)

    public static func diagonal(_ d: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
    }

    /// The cross-product matrix: `skew(a) * b == a.cross(b)`.
    public static func skew(_ a: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: SIMD3(0, -a.z, a.y), SIMD3(a.z, 0, -a.x), SIMD3(-a.y, a.x, 0))
    }

    /// The outer product `a bᵀ`.
    public static func outer(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: a.x * b, a.y * b, a.z * b)
    }

    public subscript(row: Int, column: Int) -> Double {
        get { row == 0 ? r0[column] : row == 1 ? r1[column] : r2[column] }
        set {
            switch row {
            case 0: r0[column] = newValue
            case 1: r1[column] = newValue
            default: r2[column] = newValue
            }
        }
    }

    public var c0: SIMD3<Double> { SIMD3(r0.x, r1.x, r2.x) }
    public var c1: SIMD3<Double> { SIMD3(r0.y, r1.y, r2.y) }
    public var c2: SIMD3<Double> { SIMD3(r0.z, r1.z, r2.z) }

    public var transposed: Matrix3 { Matrix3(rows: c0, c1, c2) }
    public var trace: Double { r0.x + r1.y + r2.z }
    public var determinant: Double { r0.dot(r1.cross(r2)) }

    /// The inverse, or nil when the matrix is (numerically) singular.
    public var inverse: Matrix3? {
        let d = determinant
        guard abs(d) > 1e-300, d.isFinite else { return nil }
        let a = r1.cross(r2), b = r2.cross(r0), c = r0.cross(r1)
        return Matrix3(columns: a / d, b / d, c / d)
    }

    /// The Frobenius norm.
    public var norm: Double { ((r0 * r0).sum() + (r1 * r1).sum() + (r2 * r2).sum()).squareRoot() }

    @inlinable public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(rows: SIMD3(a.r0.dot(bt.r0), a.r0.dot(bt.r1), a.r0.dot(bt.r2)),
                       SIMD3(a.r1.dot(bt.r0), a.r1.dot(bt.r1), a.r1.dot(bt.r2)),
                       SIMD3(a.r2.dot(bt.r0), a.r2.dot(bt.r1), a.r2.dot(bt.r2)))
    }

    public static func * (s: Double, m: Matrix3) -> Matrix3 { Matrix3(rows: s * m.r0, s * m.r1, s * m.r2) }
    public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2) }
    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2) }
}
