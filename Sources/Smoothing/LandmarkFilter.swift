/// One Euro smoothing of a set of 2D landmarks (pixels), one speed-adaptive filter per point,
/// with speeds measured in face sizes per second (`faceSize` in pixels, e.g. the inter-ocular
/// distance) so the same parameters hold whether the face is near or far.
///
/// The state is one flat array of per-point (value, derivative) pairs and one clock, updated in
/// place: filtering allocates nothing in the steady state as long as this value is not shared
/// (mutate the filter where it is stored, not a copy of a struct holding it, or the array is
/// copied on write once per frame) and `filter(_:time:faceSize:into:)` is given a reused output.
public struct LandmarkFilter: Sendable {
    public var parameters: OneEuroParameters
    private var points: [PointState] = []
    private var lastTime: Double?

    struct PointState: Sendable {
        var value: SIMD2<Double>
        var derivative: SIMD2<Double>
    }

    /// Defaults: 1.5 Hz still cutoff; beta 2 per (face size / s).
    public init(parameters: OneEuroParameters = OneEuroParameters(minCutoffHz: 1.5, beta: 2.0, derivativeCutoffHz: 1.0)) {
        self.parameters = parameters
    }

    public mutating func reset() { points.removeAll(keepingCapacity: true); lastTime = nil }

    public mutating func filter(_ points: [SIMD2<Float>], time: Double, faceSize: Double) -> [SIMD2<Float>] {
        var out: [SIMD2<Float>] = []
        filter(points, time: time, faceSize: faceSize, into: &out)
        return out
    }

    /// Filters `input` observed at `time` seconds and writes the smoothed points to `out` (resized
    /// to `input.count`; its storage is reused when it has the right size and is not shared).
    /// A change in the number of points restarts the filter: its first sample passes through.
    public mutating func filter(_ input: [SIMD2<Float>], time: Double, faceSize: Double, into out: inout [SIMD2<Float>]) {
        let n = input.count
        if out.count != n { out = [SIMD2<Float>](repeating: .zero, count: n) }
        guard let t0 = lastTime, points.count == n else {
            points.removeAll(keepingCapacity: true)
            points.reserveCapacity(n)
            for p in input { points.append(PointState(value: SIMD2(Double(p.x), Double(p.y)), derivative: .zero)) }
            lastTime = time
            out.withUnsafeMutableBufferPointer { o in
                input.withUnsafeBufferPointer { x in for i in 0..<n { o[i] = x[i] } }
            }
            return
        }
        let dt = max(time - t0, 1e-6)
        let ad = OneEuroFilter.alpha(cutoffHz: parameters.derivativeCutoffHz, dt: dt)
        let parameters = parameters
        points.withUnsafeMutableBufferPointer { s in
            input.withUnsafeBufferPointer { x in
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0..<n {
                        PlanarOneEuroFilter.step(value: &s[i].value, derivative: &s[i].derivative,
                                                 SIMD2(Double(x[i].x), Double(x[i].y)), dt: dt, derivativeAlpha: ad,
                                                 speedScale: faceSize, parameters: parameters)
                        o[i] = SIMD2(Float(s[i].value.x), Float(s[i].value.y))
                    }
                }
            }
        }
        lastTime = time
    }
}
