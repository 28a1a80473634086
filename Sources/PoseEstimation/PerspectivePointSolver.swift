import Geometry

/// Perspective-n-point by Levenberg–Marquardt on the reprojection error in pixels, made robust by
/// iteratively reweighted Huber loss (Huber 1964; the IRLS form as in Hartley & Zisserman §A6.8).
///
/// The state is a rotation and a translation; each step perturbs the rotation on the left in its
/// tangent space (`R ← exp(δω)·R`), so there are no Euler singularities. Image points must already be
/// undistorted (`CameraIntrinsics.undistortedPixel`); the solver projects with the pinhole part only.
/// Model points are in the model's unit (mm for faces) and the translation comes out in that unit.
public struct PerspectivePointSolver: Sendable {
    public var model: [SIMD3<Double>]
    /// Per-point base weights (≥ 0), e.g. low on silhouette points.
    public var weights: [Double]
    public var maxIterations = 30

    public init(model: [SIMD3<Double>], weights: [Double]? = nil) {
        self.model = model
        self.weights = weights ?? Array(repeating: 1, count: model.count)
        precondition(self.weights.count == model.count, "one weight per model point")
    }

    public struct Result: Sendable {
        public var pose: RigidTransform
        /// Residual per point (projection minus observation), pixels.
        public var residuals: [SIMD2<Double>]
        public var iterations: Int
    }

    /// Refines `initial`. `huberPx` is the residual length (pixels) above which a point's influence
    /// stops growing. Returns nil if the model ends behind the camera or the problem is degenerate.
    public func refine(imagePoints: [SIMD2<Double>], camera: CameraIntrinsics, initial: RigidTransform, huberPx: Double) -> Result? {
        let n = model.count
        guard imagePoints.count == n, n >= 4 else { return nil }
        var pose = initial
        var residuals = [SIMD2<Double>](repeating: .zero, count: n)
        guard var cost = evaluate(pose, imagePoints, camera, huberPx, &residuals) else { return nil }
        var lambda = 1e-3
        var iterations = 0
        var h = [Double](repeating: 0, count: 36), g = [Double](repeating: 0, count: 6)
        var trial = residuals
        while iterations < maxIterations {
            iterations += 1
            buildNormalEquations(pose, camera, residuals, huberPx, &h, &g)
            var improved = false
            for _ in 0..<8 {
                var a = h
                for k in 0..<6 { a[k * 6 + k] += lambda * max(h[k * 6 + k], 1e-9) }
                guard let step = Self.solve6(a, g.map { -$0 }) else { lambda *= 10; continue }
                let candidate = RigidTransform(
                    rotation: Rotation(rotationVector: SIMD3(step[0], step[1], step[2])) * pose.rotation,
                    translation: pose.translation + SIMD3(step[3], step[4], step[5]))
                if let c = evaluate(candidate, imagePoints, camera, huberPx, &trial), c < cost {
                    let gain = cost - c
                    pose = candidate
                    swap(&residuals, &trial)
                    cost = c
                    lambda = max(lambda / 10, 1e-9)
                    improved = true
                    let stepSize = SIMD3(step[0], step[1], step[2]).length
                    if gain < 1e-10 * max(cost, 1e-12) || stepSize < 1e-10 { return Result(pose: pose, residuals: residuals, iterations: iterations) }
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return Result(pose: pose, residuals: residuals, iterations: iterations)
    }

    /// Weighted Huber cost; fills the residuals; nil when a point is at or behind the camera.
    private func evaluate(_ pose: RigidTransform, _ observed: [SIMD2<Double>], _ camera: CameraIntrinsics,
                          _ huber: Double, _ residuals: inout [SIMD2<Double>]) -> Double? {
        var cost = 0.0
        let m = pose.rotation.matrix
        for i in 0..<model.count {
            let p = m * model[i] + pose.translation
            guard p.z > 1e-6 else { return nil }
            let u = SIMD2(camera.fx * p.x / p.z + camera.cx, camera.fy * p.y / p.z + camera.cy)
            let r = u - observed[i]
            residuals[i] = r
            let len = (r * r).sum().squareRoot()
            cost += weights[i] * (len <= huber ? 0.5 * len * len : huber * (len - 0.5 * huber))
        }
        return cost
    }

    private func buildNormalEquations(_ pose: RigidTransform, _ camera: CameraIntrinsics, _ residuals: [SIMD2<Double>],
                                      _ huber: Double, _ h: inout [Double], _ g: inout [Double]) {
        for k in 0..<36 { h[k] = 0 }
        for k in 0..<6 { g[k] = 0 }
        let m = pose.rotation.matrix
        for i in 0..<model.count {
            let r = residuals[i]
            let len = (r * r).sum().squareRoot()
            let w = weights[i] * (len <= huber ? 1 : huber / len)
            if w == 0 { continue }
            let q = m * model[i]
            let p = q + pose.translation
            let iz = 1 / p.z
            // d(pixel)/d(p): rows for u and v.
            let du = SIMD3(camera.fx * iz, 0, -camera.fx * p.x * iz * iz)
            let dv = SIMD3(0, camera.fy * iz, -camera.fy * p.y * iz * iz)
            // d(p)/d(δω) = −[q]×, so d(u)/d(δω) = −duᵀ[q]× = (q × du)ᵀ... written out: du · (δω × q) = δω · (q × du).
            let ju = [q.cross(du).x, q.cross(du).y, q.cross(du).z, du.x, du.y, du.z]
            let jv = [q.cross(dv).x, q.cross(dv).y, q.cross(dv).z, dv.x, dv.y, dv.z]
            for a in 0..<6 {
                g[a] += w * (ju[a] * r.x + jv[a] * r.y)
                for b in a..<6 { h[a * 6 + b] += w * (ju[a] * ju[b] + jv[a] * jv[b]) }
            }
        }
        for a in 0..<6 { for b in 0..<a { h[a * 6 + b] = h[b * 6 + a] } }
    }

    /// Gaussian elimination with partial pivoting on a 6x6 system; nil if singular.
    static func solve6(_ matrix: [Double], _ rhs: [Double]) -> [Double]? {
        var a = matrix, b = rhs
        for col in 0..<6 {
            var pivot = col
            for r in (col + 1)..<6 where abs(a[r * 6 + col]) > abs(a[pivot * 6 + col]) { pivot = r }
            guard abs(a[pivot * 6 + col]) > 1e-300 else { return nil }
            if pivot != col {
                for k in 0..<6 { a.swapAt(col * 6 + k, pivot * 6 + k) }
                b.swapAt(col, pivot)
            }
            for r in (col + 1)..<6 {
                let f = a[r * 6 + col] / a[col * 6 + col]
                if f == 0 { continue }
                for k in col..<6 { a[r * 6 + k] -= f * a[col * 6 + k] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: 6)
        for r in stride(from: 5, through: 0, by: -1) {
            var s = b[r]
            for k in (r + 1)..<6 { s -= a[r * 6 + k] * x[k] }
            x[r] = s / a[r * 6 + r]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
