import Foundation

/// A unit quaternion `w + xi + yj + zk` representing a rotation (Hamilton convention, active,
/// same axes as `Rotation`). `q` and `-q` are the same rotation; `init(_ rotation:)` returns the one
/// with `w ≥ 0`.
public struct Quaternion: Sendable, Equatable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    public var vector: SIMD3<Double> { SIMD3(x, y, z) }
    public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }

    public var normalized: Quaternion {
        let n = norm
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// Shepperd's method: picks the largest of w, x, y, z to divide by, so it is stable for every rotation.
    public init(_ r: Rotation) {
        let m = r.matrix
        let t = m.trace
        var q: Quaternion
        if t > max(m[0, 0], m[1, 1], m[2, 2]) {
            let s = (1 + t).squareRoot() * 2
            q = Quaternion(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] >= m[1, 1] && m[0, 0] >= m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] >= m[2, 2] {
            let s = (1 - m[0, 0] + m[1, 1] - m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 - m[0, 0] - m[1, 1] + m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        self = q.normalized
    }

    public var rotation: Rotation {
        let q = normalized
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return Rotation(unchecked: Matrix3(
            rows: SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            SIMD3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))))
    }

    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Spherical linear interpolation along the shorter arc; `t` = 0 gives `a`, 1 gives `b`.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, _ t: Double) -> Quaternion {
        var b = b
        var d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z
        if d < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z); d = -d }
        if d > 0.9995 {
            return Quaternion(w: a.w + t * (b.w - a.w), x: a.x + t * (b.x - a.x),
                              y: a.y + t * (b.y - a.y), z: a.z + t * (b.z - a.z)).normalized
        }
        let theta = acos(d)
        let sa = sin((1 - t) * theta) / sin(theta), sb = sin(t * theta) / sin(theta)
        return Quaternion(w: sa * a.w + sb * b.w, x: sa * a.x + sb * b.x, y: sa * a.y + sb * b.y, z: sa * a.z + sb * b.z)
    }
}
