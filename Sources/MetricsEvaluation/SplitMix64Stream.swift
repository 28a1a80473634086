import Foundation

/// A seeded stream of uniform and Gaussian doubles (SplitMix64, Steele, Lea & Flood 2014; Gaussian by
/// Box–Muller), so a coverage run with the same seed draws the same people on every platform.
///
/// `FaceData.SplitMix64` is the same generator, but FaceData carries the training sets' loaders; an
/// evaluation of the metrics needs only the numbers.
public struct SplitMix64Stream: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    /// Standard normal.
    public mutating func gaussian() -> Double {
        let u = max(unit(), 1e-300), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
