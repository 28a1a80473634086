/// A frame rate as the exact fraction `rate / scale` frames per second, the form AVI stores
/// (`dwRate` / `dwScale`). 29.97 becomes 2997/100, NTSC's 30000/1001 stays 30000/1001,
/// 22.13 becomes 2213/100.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
    public var rate: UInt32
    public var scale: UInt32

    public init(rate: UInt32, scale: UInt32) {
        precondition(rate > 0 && scale > 0, "frame rate terms must be positive")
        self.rate = rate
        self.scale = scale
    }

    /// The simplest fraction within one part in 10^9 of `framesPerSecond` (continued fractions,
    /// denominators up to 1,000,000). `framesPerSecond` must be finite and in 0.001 ... 1,000,000.
    public init?(framesPerSecond x: Double) {
        guard x.isFinite, x >= 0.001, x <= 1_000_000 else { return nil }
        // Convergents h/k of the continued fraction of x.
        var (h0, h1): (Double, Double) = (0, 1)
        var (k0, k1): (Double, Double) = (1, 0)
        var r = x
        var best: (Double, Double) = (x.rounded(), 1)
        for _ in 0..<40 {
            let a = r.rounded(.down)
            let h2 = a * h1 + h0, k2 = a * k1 + k0
            if k2 > 1_000_000 || h2 > Double(UInt32.max) { break }
            best = (h2, k2)
            if abs(h2 / k2 - x) <= 1e-9 * x { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let frac = r - a
            if frac < 1e-12 { break }
            r = 1 / frac
        }
        guard best.0 >= 1 else { return nil }
        self.init(rate: UInt32(best.0), scale: UInt32(best.1))
    }

    public var framesPerSecond: Double { Double(rate) / Double(scale) }

    /// Frame duration in whole microseconds (AVI's `dwMicroSecPerFrame`).
    public var microsecondsPerFrame: UInt32 {
        UInt32((1_000_000 * Double(scale) / Double(rate)).rounded())
    }

    public var description: String { scale == 1 ? "\(rate)" : "\(rate)/\(scale)" }
}
