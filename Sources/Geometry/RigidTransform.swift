/// A rigid motion `p ↦ rotation · p + translation`. Named by what it maps, e.g. `cameraFromFace`
/// takes face-model coordinates (mm) to camera coordinates (mm).
public struct RigidTransform: Sendable, Equatable {
    public var rotation: Rotation
    public var translation: SIMD3<Double>

    public init(rotation: Rotation, translation: SIMD3<Double>) {
        self.rotation = rotation
        self.translation = translation
    }

    public static let identity = RigidTransform(rotation: .identity, translation: .zero)

    @inlinable public func apply(_ p: SIMD3<Double>) -> SIMD3<Double> { rotation.matrix * p + translation }

    public var inverse: RigidTransform {
        let rt = rotation.inverse
        return RigidTransform(rotation: rt, translation: -(rt * translation))
    }

    /// `(a * b).apply(p) == a.apply(b.apply(p))`.
    public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
        RigidTransform(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }

    /// The least-squares rigid motion taking `source[i]` onto `target[i]` (Kabsch 1976 / Arun et al. 1987),
    /// optionally weighted. Nil for fewer than three points or non-positive total weight.
    public static func fit(from source: [SIMD3<Double>], to target: [SIMD3<Double>], weights: [Double]? = nil) -> RigidTransform? {
        guard source.count == target.count, source.count >= 3 else { return nil }
        let w = weights ?? Array(repeating: 1, count: source.count)
        let total = w.reduce(0, +)
        guard total > 0 else { return nil }
        var cs = SIMD3<Double>.zero, ct = SIMD3<Double>.zero
        for i in source.indices { cs += w[i] * source[i]; ct += w[i] * target[i] }
        cs /= total; ct /= total
        var h = Matrix3.zero
        for i in source.indices { h = h + w[i] * Matrix3.outer(target[i] - ct, source[i] - cs) }
        let r = Rotation(nearestTo: h)
        return RigidTransform(rotation: r, translation: ct - r * cs)
    }
}
