/// Exponential back-off between reconnect attempts: `initialSeconds`, doubling, capped at
/// `maxSeconds`. A re-plugged USB camera takes 0.5–2 s to re-appear (enumeration, udev rules),
/// so the first tries come fast and later ones do not spin.
public struct Backoff: Sendable, Equatable {
    public var initialSeconds: Double
    public var maxSeconds: Double
    public var factor: Double
    private var current: Double?

    public init(initialSeconds: Double = 0.1, maxSeconds: Double = 2, factor: Double = 2) {
        precondition(initialSeconds > 0 && maxSeconds >= initialSeconds && factor >= 1, "invalid back-off")
        self.initialSeconds = initialSeconds
        self.maxSeconds = maxSeconds
        self.factor = factor
    }

    /// The delay before the next attempt.
    public mutating func next() -> Double {
        let delay = current.map { min(maxSeconds, $0 * factor) } ?? initialSeconds
        current = delay
        return delay
    }

    public mutating func reset() { current = nil }
}
