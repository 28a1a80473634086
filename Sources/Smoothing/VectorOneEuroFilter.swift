import Foundation

/// A One Euro filter on an N-vector whose cutoff is driven by the vector's speed (the norm of the
/// filtered derivative), so all components share one cutoff and a point moves without its x and y
/// being smoothed differently. Same contract as `OneEuroFilter`.
public struct VectorOneEuroFilter: Sendable {
    public var parameters: OneEuroParameters
    private var value: [Double] = []
    private var derivative: [Double] = []
    private var lastTime: Double?

    public init(parameters: OneEuroParameters = OneEuroParameters()) { self.parameters = parameters }

    public mutating func reset() { value = []; derivative = []; lastTime = nil }

    public mutating func filter(_ x: [Double], time: Double, speedScale: Double = 1) -> [Double] {
        guard let t0 = lastTime, value.count == x.count else {
            value = x; derivative = Array(repeating: 0, count: x.count); lastTime = time
            return x
        }
        let dt = max(time - t0, 1e-6)
        let ad = OneEuroFilter.alpha(cutoffHz: parameters.derivativeCutoffHz, dt: dt)
        var speed2 = 0.0
        for k in 0..<x.count {
            derivative[k] += ad * ((x[k] - value[k]) / dt - derivative[k])
            speed2 += derivative[k] * derivative[k]
        }
        let cutoff = parameters.minCutoffHz + parameters.beta * speed2.squareRoot() / max(speedScale, 1e-12)
        let a = OneEuroFilter.alpha(cutoffHz: cutoff, dt: dt)
        for k in 0..<x.count { value[k] += a * (x[k] - value[k]) }
        lastTime = time
        return value
    }
}
