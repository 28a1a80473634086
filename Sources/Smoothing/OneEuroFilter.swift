import Foundation

/// The One Euro filter (Casiez, Roussel & Vogel, "1€ Filter: A Simple Speed-based Low-pass Filter for
/// Noisy Input in Interactive Systems", CHI 2012): an exponential low-pass whose cutoff rises with the
/// signal's speed, `cutoff = minCutoffHz + beta · |speed|`, so still signals are smoothed hard and fast
/// ones follow with little lag. Driven by timestamps in seconds (not frame counts), so it behaves the
/// same at any frame rate or with dropped frames.
///
/// `speedScale` divides the measured speed before it meets `beta`: passing the face size makes
/// `beta` a property of motion in face sizes per second, so one tuning holds at any distance.
public struct OneEuroFilter: Sendable {
    public var parameters: OneEuroParameters
    private var value: Double?
    private var derivative = 0.0
    private var lastTime: Double?

    public init(parameters: OneEuroParameters = OneEuroParameters()) { self.parameters = parameters }

    /// Smoothing factor of an exponential filter with cutoff `f` Hz for a step of `dt` seconds.
    @inlinable public static func alpha(cutoffHz f: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * f)
        return 1 / (1 + tau / dt)
    }

    public mutating func reset() { value = nil; lastTime = nil; derivative = 0 }

    /// Filters `x` observed at `time` seconds. Non-increasing timestamps pass the sample through
    /// the filter state unchanged in time (dt is clamped to a microsecond).
    public mutating func filter(_ x: Double, time: Double, speedScale: Double = 1) -> Double {
        guard let previous = value, let t0 = lastTime else {
            value = x; lastTime = time; derivative = 0
            return x
        }
        let dt = max(time - t0, 1e-6)
        let dx = (x - previous) / dt
        derivative += Self.alpha(cutoffHz: parameters.derivativeCutoffHz, dt: dt) * (dx - derivative)
        let cutoff = parameters.minCutoffHz + parameters.beta * abs(derivative) / max(speedScale, 1e-12)
        let y = previous + Self.alpha(cutoffHz: cutoff, dt: dt) * (x - previous)
        value = y; lastTime = time
        return y
    }
}

/// One Euro filter tuning. `minCutoffHz`: cutoff for a still signal (lower = less jitter, more lag
/// when starting to move); `beta`: cutoff increase per unit of (scaled) speed (higher = less lag in
/// fast motion); `derivativeCutoffHz`: cutoff of the speed estimate (the paper uses 1 Hz).
public struct OneEuroParameters: Sendable, Equatable {
    public var minCutoffHz: Double
    public var beta: Double
    public var derivativeCutoffHz: Double

    public init(minCutoffHz: Double = 1.0, beta: Double = 0.0, derivativeCutoffHz: Double = 1.0) {
        self.minCutoffHz = minCutoffHz
        self.beta = beta
        self.derivativeCutoffHz = derivativeCutoffHz
    }
}
