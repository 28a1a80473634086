import Geometry

/// Closed-form pose under scaled orthography (weak perspective): the least-squares affine camera
/// `u ≈ A·X + b` from model points to normalised image points, whose two rows are then made
/// orthonormal (their mean length is the scale `1/z`). Good to a few degrees for a face far from
/// the camera compared with its depth, which is what the Levenberg–Marquardt refinement needs as a
/// start (DeMenthon & Davis, "Model-based object pose in 25 lines of code", IJCV 1995, use the same
/// first step). Requires at least four non-coplanar points.
public enum WeakPerspectivePose {
    /// `normalised` are undistorted normalised image coordinates (x/z, y/z); `weights` ≥ 0.
    public static func solve(model: [SIMD3<Double>], normalised: [SIMD2<Double>], weights: [Double]) -> RigidTransform? {
        normalised.withUnsafeBufferPointer { solve(model: model, normalised: $0, weights: weights) }
    }

    /// The same on caller storage (the pose estimator's reused workspace).
    static func solve(model: [SIMD3<Double>], normalised: UnsafeBufferPointer<SIMD2<Double>>, weights: [Double]) -> RigidTransform? {
        let n = model.count
        guard n >= 4, normalised.count == n, weights.count == n else { return nil }
        var wsum = 0.0
        var mx = SIMD3<Double>.zero, mu = SIMD2<Double>.zero
        for i in 0..<n { wsum += weights[i]; mx += weights[i] * model[i]; mu += weights[i] * normalised[i] }
        guard wsum > 0 else { return nil }
        mx /= wsum; mu /= wsum
        var xx = Matrix3.zero
        var ux = SIMD3<Double>.zero, vx = SIMD3<Double>.zero
        for i in 0..<n {
            let d = model[i] - mx, e = normalised[i] - mu, w = weights[i]
            xx = xx + w * Matrix3.outer(d, d)
            ux += w * e.x * d
            vx += w * e.y * d
        }
        guard let inv = xx.inverse else { return nil }
        // Rows of A = [ux; vx] · (XXᵀ)⁻¹ (XXᵀ is symmetric, so row · inv = inv · row).
        let a1 = inv * ux, a2 = inv * vx
        let l1 = a1.length, l2 = a2.length
        guard l1 > 0, l2 > 0, (l1 + l2).isFinite else { return nil }
        let s = (l1 + l2) / 2
        let r1 = a1 / l1
        let r2 = a2 / l2
        let r3 = r1.cross(r2)
        let rotation = Rotation(nearestTo: Matrix3(rows: r1, r2, r3.normalized))
        let tz = 1 / s
        let t = SIMD3(mu.x * tz, mu.y * tz, tz) - rotation * mx
        return RigidTransform(rotation: rotation, translation: t)
    }
}
