/// A 2-D similarity transform `p' = [a −b; b a] p + t` (uniform scale `√(a²+b²)`, rotation, translation).
///
/// The landmark cascade uses it to map its reference frame (the mean shape) onto a face in the image,
/// so descriptors and shape increments are expressed independently of the face's size and in-plane roll.
public struct SimilarityTransform: Sendable, Equatable {
    public var a: Float
    public var b: Float
    public var tx: Float
    public var ty: Float

    public init(a: Float, b: Float, tx: Float, ty: Float) {
        self.a = a; self.b = b; self.tx = tx; self.ty = ty
    }

    public static let identity = SimilarityTransform(a: 1, b: 0, tx: 0, ty: 0)

    /// Scale factor (output units per input unit).
    public var scale: Float { (a * a + b * b).squareRoot() }

    @inlinable public func apply(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(a * p.x - b * p.y + tx, b * p.x + a * p.y + ty)
    }

    /// The linear part only (for displacements).
    @inlinable public func applyLinear(_ v: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(a * v.x - b * v.y, b * v.x + a * v.y)
    }

    public var inverse: SimilarityTransform {
        let d = a * a + b * b
        let ia = a / d, ib = -b / d
        return SimilarityTransform(a: ia, b: ib, tx: -(ia * tx - ib * ty), ty: -(ib * tx + ia * ty))
    }

    /// The least-squares similarity taking `source[i]` to `destination[i]` (Umeyama without reflection).
    public static func fit(from source: [SIMD2<Float>], to destination: [SIMD2<Float>]) -> SimilarityTransform {
        precondition(source.count == destination.count && !source.isEmpty, "point sets differ in size")
        return fit(source, destination, over: source.indices)
    }

    /// `fit(from:to:)` on the points `indices` of both sets, without gathering them into new arrays
    /// (same arithmetic in the same order, so the same result to the bit).
    public static func fit(from source: [SIMD2<Float>], to destination: [SIMD2<Float>], indices: [Int]) -> SimilarityTransform {
        precondition(source.count == destination.count && !indices.isEmpty, "point sets differ in size")
        return fit(source, destination, over: indices)
    }

    /// The fit over the points `indices` (both public forms; specialised per index collection).
    @inline(__always)
    private static func fit<Indices: Collection<Int>>(_ source: [SIMD2<Float>], _ destination: [SIMD2<Float>],
                                                      over indices: Indices) -> SimilarityTransform {
        let n = Float(indices.count)
        var sc = SIMD2<Float>(0, 0), dc = SIMD2<Float>(0, 0)
        for i in indices { sc += source[i]; dc += destination[i] }
        sc /= n; dc /= n
        var num1: Float = 0, num2: Float = 0, den: Float = 0
        for i in indices {
            let s = source[i] - sc, d = destination[i] - dc
            num1 += s.x * d.x + s.y * d.y
            num2 += s.x * d.y - s.y * d.x
            den += s.x * s.x + s.y * s.y
        }
        let a = den > 0 ? num1 / den : 1, b = den > 0 ? num2 / den : 0
        return SimilarityTransform(a: a, b: b, tx: dc.x - (a * sc.x - b * sc.y), ty: dc.y - (b * sc.x + a * sc.y))
    }
}
