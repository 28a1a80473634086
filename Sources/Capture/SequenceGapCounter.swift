/// Counts frames the driver dropped, from gaps in V4L2 buffer `sequence` numbers.
///
/// Every dequeued buffer must be observed (also the ones latest-frame-wins discards, which were
/// delivered by the driver and are not drops). The 32-bit counter wraps (vivid can force this);
/// a backward jump means the driver restarted counting (re-open, STREAMON) and is not a drop.
public struct SequenceGapCounter: Sendable, Equatable {
    public private(set) var dropped = 0
    public private(set) var last: UInt32?

    public init() {}

    /// Returns the number of frames missing before `sequence`.
    @discardableResult
    public mutating func observe(_ sequence: UInt32) -> Int {
        defer { last = sequence }
        guard let last else { return 0 }
        let delta = sequence &- last
        // A repeated number or a jump of more than half the range backwards: not a gap.
        guard delta != 0, delta < 0x8000_0000 else { return 0 }
        let gap = Int(delta - 1)
        dropped += gap
        return gap
    }

    /// Forgets the last number (after a restart of the stream); keeps the running total.
    public mutating func restart() { last = nil }
}
