import FaceData
import Foundation

/// Double-precision draws for the coverage trials, from the project's one seeded generator
/// (`FaceData.SplitMix64`), so a run with the same seed draws the same people on every platform.
extension SplitMix64 {
    /// Uniform in [0, 1), 53 bits (`unit()` gives a Float's 24).
    mutating func unitDouble() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unitDouble() }

    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = max(unitDouble(), 1e-300), v = unitDouble()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
