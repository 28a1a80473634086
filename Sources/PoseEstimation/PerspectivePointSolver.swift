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
        var residuals = [SIMD2<Double>](repeating: .zero, count: n)
        var trial = [SIMD2<Double>](repeating: .zero, count: n)
        let fit = imagePoints.withUnsafeBufferPointer { observed in
            residuals.withUnsafeMutableBufferPointer { r in
                trial.withUnsafeMutableBufferPointer { t in
                    refine(observed, camera: camera, initial: initial, huberPx: huberPx, residuals: r, trial: t)
                }
            }
        }
        guard let fit else { return nil }
        return Result(pose: fit.pose, residuals: residuals, iterations: fit.iterations)
    }

    /// `refine(imagePoints:camera:initial:huberPx:)` on caller storage, allocation-free: the final
    /// residuals are written to `residuals`; `trial` (same length) is scratch for rejected steps.
    func refine(_ observed: UnsafeBufferPointer<SIMD2<Double>>, camera: CameraIntrinsics, initial: RigidTransform, huberPx: Double,
                residuals: UnsafeMutableBufferPointer<SIMD2<Double>>, trial: UnsafeMutableBufferPointer<SIMD2<Double>>)
        -> (pose: RigidTransform, iterations: Int)? {
        let n = model.count
        guard observed.count == n, residuals.count == n, trial.count == n, n >= 4 else { return nil }
        var current = residuals, spare = trial
        var pose = initial
        guard var cost = evaluate(pose, observed, camera, huberPx, current) else { return nil }
        var lambda = 1e-3
        var iterations = 0
        // h, g: normal equations; a, b: the damped system; x: its solution (6x6: on the stack).
        let outcome = withUnsafeTemporaryAllocation(of: Double.self, capacity: 90) { buffer -> (RigidTransform, Int) in
            let h = buffer.baseAddress!, g = h + 36, a = g + 6, b = a + 36, x = b + 6
            while iterations < maxIterations {
                iterations += 1
                buildNormalEquations(pose, camera, UnsafeBufferPointer(current), huberPx, h, g)
                var improved = false
                for _ in 0..<8 {
                    for k in 0..<36 { a[k] = h[k] }
                    for k in 0..<6 { a[k * 6 + k] += lambda * max(h[k * 6 + k], 1e-9) }
                    for k in 0..<6 { b[k] = -g[k] }
                    guard Self.solve6(a, b, x) else { lambda *= 10; continue }
                    let candidate = RigidTransform(
                        rotation: Rotation(rotationVector: SIMD3(x[0], x[1], x[2])) * pose.rotation,
                        translation: pose.translation + SIMD3(x[3], x[4], x[5]))
                    if let c = evaluate(candidate, observed, camera, huberPx, spare), c < cost {
                        let gain = cost - c
                        pose = candidate
                        swap(&current, &spare)
                        cost = c
                        lambda = max(lambda / 10, 1e-9)
                        improved = true
                        let stepSize = SIMD3(x[0], x[1], x[2]).length
                        if gain < 1e-10 * max(cost, 1e-12) || stepSize < 1e-10 { return (pose, iterations) }
                        break
                    }
                    lambda *= 10
                }
                if !improved { break }
            }
            return (pose, iterations)
        }
        if current.baseAddress != residuals.baseAddress {
            for i in 0..<n { residuals[i] = current[i] }
        }
        return (outcome.0, outcome.1)
    }

    /// Weighted Huber cost; fills the residuals; nil when a point is at or behind the camera.
    private func evaluate(_ pose: RigidTransform, _ observed: UnsafeBufferPointer<SIMD2<Double>>, _ camera: CameraIntrinsics,
                          _ huber: Double, _ residuals: UnsafeMutableBufferPointer<SIMD2<Double>>) -> Double? {
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

    private func buildNormalEquations(_ pose: RigidTransform, _ camera: CameraIntrinsics, _ residuals: UnsafeBufferPointer<SIMD2<Double>>,
                                      _ huber: Double, _ h: UnsafeMutablePointer<Double>, _ g: UnsafeMutablePointer<Double>) {
        // Row a of h accumulates w (u[a] u + v[a] v) over the points, in registers: six vectors of
        // eight lanes (the last two stay zero), each lane the same operations in the same order as
        // the scalar element h[a][b] += w (u[a] u[b] + v[a] v[b]), so the sums are the same to the
        // bit. Adding into h in memory element by element was most of the pose's time.
        let zero = SIMD8<Double>()
        var h0 = zero, h1 = zero, h2 = zero, h3 = zero, h4 = zero, h5 = zero, gv = zero
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
            // The Jacobian rows u, v: (q × du, du) and (q × dv, dv). Their elements are taken from
            // the SIMD3s, not from lanes of the SIMD8s (lane extraction went through memory).
            let qu = q.cross(du), qv = q.cross(dv)
            let u = SIMD8(qu.x, qu.y, qu.z, du.x, du.y, du.z, 0, 0), v = SIMD8(qv.x, qv.y, qv.z, dv.x, dv.y, dv.z, 0, 0)
            gv += w * (u * r.x + v * r.y)
            h0 += w * (qu.x * u + qv.x * v)
            h1 += w * (qu.y * u + qv.y * v)
            h2 += w * (qu.z * u + qv.z * v)
            h3 += w * (du.x * u + dv.x * v)
            h4 += w * (du.y * u + dv.y * v)
            h5 += w * (du.z * u + dv.z * v)
        }
        @inline(__always) func store(_ row: SIMD8<Double>, _ a: Int) {
            g[a] = gv[a]
            for b in a..<6 { h[a * 6 + b] = row[b] }
        }
        store(h0, 0); store(h1, 1); store(h2, 2); store(h3, 3); store(h4, 4); store(h5, 5)
        for a in 0..<6 { for b in 0..<a { h[a * 6 + b] = h[b * 6 + a] } }
    }

    /// Gaussian elimination with partial pivoting on the 6x6 system `a x = b` (row-major `a`, both
    /// overwritten); false if singular or the solution is not finite.
    static func solve6(_ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, _ x: UnsafeMutablePointer<Double>) -> Bool {
        for col in 0..<6 {
            var pivot = col
            for r in (col + 1)..<6 where abs(a[r * 6 + col]) > abs(a[pivot * 6 + col]) { pivot = r }
            guard abs(a[pivot * 6 + col]) > 1e-300 else { return false }
            if pivot != col {
                for k in 0..<6 { let t = a[col * 6 + k]; a[col * 6 + k] = a[pivot * 6 + k]; a[pivot * 6 + k] = t }
                let t = b[col]; b[col] = b[pivot]; b[pivot] = t
            }
            for r in (col + 1)..<6 {
                let f = a[r * 6 + col] / a[col * 6 + col]
                if f == 0 { continue }
                for k in col..<6 { a[r * 6 + k] -= f * a[col * 6 + k] }
                b[r] -= f * b[col]
            }
        }
        for k in 0..<6 { x[k] = 0 }
        for r in stride(from: 5, through: 0, by: -1) {
            var s = b[r]
            for k in (r + 1)..<6 { s -= a[r * 6 + k] * x[k] }
            x[r] = s / a[r * 6 + r]
        }
        for k in 0..<6 where !x[k].isFinite { return false }
        return true
    }
}
