import Foundation

/// A proper rotation of 3-space (orthonormal, determinant +1), stored as its matrix.
///
/// Frames follow the camera convention used throughout Lorgnette (OpenCV's): x to the image right,
/// y down, z forward along the optical axis; rotations are right-handed about those axes.
/// The rotation vector (axis · angle, radians) is the tangent-space coordinate used by the pose
/// solver and the pose filter: `Rotation(rotationVector:)` is the exponential map (Rodrigues' formula)
/// and `rotationVector` its inverse (the logarithm, angle in [0, π]).
public struct Rotation: Sendable, Equatable {
    public let matrix: Matrix3

    /// Wraps a matrix the caller guarantees is a rotation; use `init(nearestTo:)` otherwise.
    public init(unchecked matrix: Matrix3) { self.matrix = matrix }

    public static let identity = Rotation(unchecked: .identity)

    /// Rodrigues' formula: rotation by `|v|` radians about `v / |v|`.
    public init(rotationVector v: SIMD3<Double>) {
        let theta = v.length
        let k = Matrix3.skew(v)
        // Taylor forms below 1e-4 rad keep full precision where sin θ / θ loses it.
        let a: Double, b: Double
        if theta < 1e-4 {
            a = 1 - theta * theta / 6
            b = 0.5 - theta * theta / 24
        } else {
            a = sin(theta) / theta
            b = (1 - cos(theta)) / (theta * theta)
        }
        matrix = Matrix3.identity + a * k + b * (k * k)
    }

    public init(axis: SIMD3<Double>, angle: Double) {
        self.init(rotationVector: axis.normalized * angle)
    }

    /// The closest rotation to `m` in the Frobenius norm (the orthogonal Procrustes solution):
    /// `U diag(1, 1, det(U Vᵀ)) Vᵀ` from the SVD of `m`.
    public init(nearestTo m: Matrix3) {
        let svd = SingularValues3(m)
        let u = svd.u, v = svd.v
        let d = (u * v.transposed).determinant < 0 ? -1.0 : 1.0
        matrix = u * Matrix3.diagonal(SIMD3(1, 1, d)) * v.transposed
    }

    /// The logarithm: axis · angle with angle in [0, π].
    public var rotationVector: SIMD3<Double> {
        let m = matrix
        let cosTheta = max(-1, min(1, (m.trace - 1) / 2))
        let w = SIMD3(m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1])
        let sinTheta2 = w.length  // = 2 sin θ
        if cosTheta > 0.99999 {
            // Near identity: w / 2 ≈ θ · axis to third order.
            return w / 2 * (1 + (1 - cosTheta) / 3)
        }
        let theta = atan2(sinTheta2 / 2, cosTheta)
        if cosTheta > -0.9 {
            return w / sinTheta2 * theta
        }
        // Near π the antisymmetric part vanishes; read the axis from the symmetric part instead:
        // (R + Rᵀ)/2 = cos θ · I + (1 − cos θ) a aᵀ, taking the row with the largest diagonal for stability.
        let sym = 0.5 * (m + m.transposed)
        let b = (1 / (1 - cosTheta)) * (sym - cosTheta * Matrix3.identity)
        var axis: SIMD3<Double>
        if b[0, 0] >= b[1, 1] && b[0, 0] >= b[2, 2] {
            axis = b.r0
        } else if b[1, 1] >= b[2, 2] {
            axis = b.r1
        } else {
            axis = b.r2
        }
        axis = axis.normalized
        if axis.dot(w) < 0 { axis = -axis }
        return axis * theta
    }

    /// Rotation angle in radians, in [0, π].
    public var angle: Double {
        // atan2 of sin and cos keeps full precision near 0 and π, where acos of the trace does not.
        let m = matrix
        let w = SIMD3(m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1])
        return atan2(w.length / 2, (m.trace - 1) / 2)
    }

    public var inverse: Rotation { Rotation(unchecked: matrix.transposed) }

    /// The angle in radians of the rotation taking `self` to `other` (the geodesic distance on SO(3)).
    public func angle(to other: Rotation) -> Double { (inverse * other).angle }

    @inlinable public static func * (a: Rotation, b: Rotation) -> Rotation { Rotation(unchecked: a.matrix * b.matrix) }
    @inlinable public static func * (r: Rotation, v: SIMD3<Double>) -> SIMD3<Double> { r.matrix * v }
}
