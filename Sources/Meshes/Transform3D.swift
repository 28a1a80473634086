import Foundation

/// An affine transform of 3D points, `p' = linear * p + translation`, in Float (the precision the
/// rasteriser works in). `linear` is stored as three columns. Used for glTF node transforms (which
/// may scale and shear), for normalising models to the canonical glasses frame and for camera poses.
public struct Transform3D: Sendable, Equatable {
    public var c0: SIMD3<Float>
    public var c1: SIMD3<Float>
    public var c2: SIMD3<Float>
    public var translation: SIMD3<Float>

    public init(columns c0: SIMD3<Float>, _ c1: SIMD3<Float>, _ c2: SIMD3<Float>, translation: SIMD3<Float> = .zero) {
        self.c0 = c0
        self.c1 = c1
        self.c2 = c2
        self.translation = translation
    }

    public static let identity = Transform3D(columns: [1, 0, 0], [0, 1, 0], [0, 0, 1])

    /// From a glTF column-major 4x4 matrix (16 numbers; the bottom row is assumed to be 0 0 0 1).
    public init(columnMajor m: [Float]) {
        precondition(m.count == 16, "a 4x4 matrix has 16 entries")
        self.init(columns: [m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]], translation: [m[12], m[13], m[14]])
    }

    /// Translation, rotation (unit quaternion x, y, z, w as glTF stores it), then scale: `T * R * S`.
    public init(translation t: SIMD3<Float>, rotation q: SIMD4<Float>, scale s: SIMD3<Float>) {
        let r = Transform3D.rotation(quaternion: q)
        self.init(columns: r.c0 * s.x, r.c1 * s.y, r.c2 * s.z, translation: t)
    }

    /// Rotation matrix of a quaternion (x, y, z, w); normalised first so slightly off files still work.
    public static func rotation(quaternion q: SIMD4<Float>) -> Transform3D {
        let n = (q * q).sum()
        let u = n > 0 ? q / n.squareRoot() : SIMD4<Float>(0, 0, 0, 1)
        let (x, y, z, w) = (u.x, u.y, u.z, u.w)
        return Transform3D(
            columns: [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
            [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
            [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)])
    }

    /// Rotation by `radians` about a unit `axis` (right-hand rule).
    public static func rotation(axis: SIMD3<Float>, radians: Float) -> Transform3D {
        let h = radians / 2
        let s = sin(h)
        return rotation(quaternion: SIMD4<Float>(axis.x * s, axis.y * s, axis.z * s, cos(h)))
    }

    public static func scaling(_ s: Float) -> Transform3D {
        Transform3D(columns: [s, 0, 0], [0, s, 0], [0, 0, s])
    }

    public static func translation(_ t: SIMD3<Float>) -> Transform3D {
        Transform3D(columns: [1, 0, 0], [0, 1, 0], [0, 0, 1], translation: t)
    }

    @inlinable public func apply(_ p: SIMD3<Float>) -> SIMD3<Float> {
        c0 * p.x + c1 * p.y + c2 * p.z + translation
    }

    /// The linear part only: for directions.
    @inlinable public func applyLinear(_ v: SIMD3<Float>) -> SIMD3<Float> {
        c0 * v.x + c1 * v.y + c2 * v.z
    }

    /// `self ∘ other`: apply `other` first.
    public static func * (a: Transform3D, b: Transform3D) -> Transform3D {
        Transform3D(columns: a.applyLinear(b.c0), a.applyLinear(b.c1), a.applyLinear(b.c2), translation: a.apply(b.translation))
    }

    public var determinant: Float { simdDot(c0, simdCross(c1, c2)) }

    /// The matrix that maps normals: the inverse transpose of `linear` (times the determinant, whose
    /// scale does not matter as normals are renormalised; its sign is kept so normals stay outward).
    public var normalMatrix: Transform3D {
        // Cofactor matrix = det * inverse-transpose.
        Transform3D(columns: simdCross(c1, c2), simdCross(c2, c0), simdCross(c0, c1))
    }

    /// Inverse of the affine map. Precondition: non-singular.
    public var inverse: Transform3D {
        let det = determinant
        precondition(det != 0, "singular transform")
        let cof = normalMatrix // columns are rows of the inverse * det
        let r0 = cof.c0 / det, r1 = cof.c1 / det, r2 = cof.c2 / det
        // Inverse linear has rows r0, r1, r2: transpose into columns.
        let inv = Transform3D(columns: [r0.x, r1.x, r2.x], [r0.y, r1.y, r2.y], [r0.z, r1.z, r2.z])
        return Transform3D(columns: inv.c0, inv.c1, inv.c2, translation: -inv.applyLinear(translation))
    }
}

@inlinable public func simdDot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }

@inlinable public func simdCross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3<Float>(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inlinable public func simdLength(_ a: SIMD3<Float>) -> Float { (a * a).sum().squareRoot() }

@inlinable public func simdNormalize(_ a: SIMD3<Float>) -> SIMD3<Float> {
    let l = simdLength(a)
    return l > 0 ? a / l : a
}
