/// A One Euro filter on a 2-vector (a landmark in pixels, a viewing direction x/z, y/z) held in a
/// `SIMD2`: the arithmetic of `VectorOneEuroFilter` for two components, operation for operation
/// (so results are bit-identical), without its arrays, so filtering allocates nothing and a copy
/// of the state is a plain value copy. Same contract as `OneEuroFilter` (timestamps in seconds;
/// `speedScale` divides the speed before it meets `beta`).
struct PlanarOneEuroFilter: Sendable {
    var value = SIMD2<Double>.zero
    var derivative = SIMD2<Double>.zero
    var lastTime: Double?

    mutating func reset() { value = .zero; derivative = .zero; lastTime = nil }

    mutating func filter(_ x: SIMD2<Double>, time: Double, speedScale: Double, parameters: OneEuroParameters) -> SIMD2<Double> {
        guard let t0 = lastTime else {
            value = x; derivative = .zero; lastTime = time
            return x
        }
        let dt = max(time - t0, 1e-6)
        Self.step(value: &value, derivative: &derivative, x, dt: dt,
                  derivativeAlpha: OneEuroFilter.alpha(cutoffHz: parameters.derivativeCutoffHz, dt: dt),
                  speedScale: speedScale, parameters: parameters)
        lastTime = time
        return value
    }

    /// One step after the first sample: the derivative's low-pass, then the value's with the
    /// cutoff its speed opens. Shared with `LandmarkFilter`, which keeps one clock for all points.
    @inline(__always)
    static func step(value: inout SIMD2<Double>, derivative: inout SIMD2<Double>, _ x: SIMD2<Double>, dt: Double,
                     derivativeAlpha ad: Double, speedScale: Double, parameters: OneEuroParameters) {
        derivative += ad * ((x - value) / dt - derivative)
        let speed2 = derivative.x * derivative.x + derivative.y * derivative.y
        let cutoff = parameters.minCutoffHz + parameters.beta * speed2.squareRoot() / max(speedScale, 1e-12)
        value += OneEuroFilter.alpha(cutoffHz: cutoff, dt: dt) * (x - value)
    }
}
