/// The time between two frames as V4L2 states it: `numerator / denominator` seconds
/// (1/30 is 30 frames per second). Kept as a fraction because drivers do (29.97 fps is 1001/30000).
public struct FrameInterval: Hashable, Sendable, Codable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32

    public init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval closest to `1 / fps` that V4L2 can carry (1000ths of a frame, enough for 29.97).
    public init(framesPerSecond fps: Double) {
        precondition(fps > 0, "frames per second must be positive")
        if fps == fps.rounded() && fps < 1_000_000 {
            self.init(numerator: 1, denominator: UInt32(fps))
        } else {
            self.init(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        }
    }

    /// Frames per second; nil for a 0 numerator or denominator (a driver that does not say).
    public var framesPerSecond: Double? {
        guard numerator > 0, denominator > 0 else { return nil }
        return Double(denominator) / Double(numerator)
    }

    public var description: String { "\(numerator)/\(denominator)" }
}
