/// Running counts for one capture session (or several, across reconnects).
public struct CaptureStatistics: Sendable, Equatable {
    /// Frames handed to the caller.
    public var delivered = 0
    /// Frames the driver never delivered, from gaps in `sequence`.
    public var dropped = 0
    /// Good frames discarded by latest-frame-wins because a newer one was ready.
    public var superseded = 0
    /// Buffers flagged V4L2_BUF_FLAG_ERROR, skipped.
    public var flaggedError = 0
    /// Buffers skipped as malformed: MJPEG without SOI ... EOI framing, or a raw frame shorter
    /// than its format needs.
    public var malformed = 0
    public var reconnects = 0
    /// Buffer timestamps (seconds) of the first and last delivered frame.
    public var firstTimestamp: Double?
    public var lastTimestamp: Double?

    public init() {}

    /// Delivered frames per second over the span of their timestamps; nil under two frames.
    public var measuredFramesPerSecond: Double? {
        guard delivered >= 2, let first = firstTimestamp, let last = lastTimestamp, last > first else { return nil }
        return Double(delivered - 1) / (last - first)
    }

    public mutating func add(_ other: CaptureStatistics) {
        delivered += other.delivered
        dropped += other.dropped
        superseded += other.superseded
        flaggedError += other.flaggedError
        malformed += other.malformed
        reconnects += other.reconnects
        if firstTimestamp == nil { firstTimestamp = other.firstTimestamp }
        if other.lastTimestamp != nil { lastTimestamp = other.lastTimestamp }
    }
}

/// Per-frame cost of capture, both in nanoseconds on CLOCK_MONOTONIC.
public struct FrameTiming: Sendable, Equatable {
    /// From VIDIOC_DQBUF returning the delivered buffer to the frame being handed to the caller
    /// (draining, framing checks, copy or colour conversion, re-queue).
    public var overheadNanoseconds: Int64
    /// How old the frame is when handed over: now minus the buffer's timestamp (the driver's
    /// capture time: for UVC the first USB packet of the frame, for vivid the scheduled end of
    /// the frame period). Nil when the driver's timestamps are not on CLOCK_MONOTONIC.
    public var ageNanoseconds: Int64?

    public init(overheadNanoseconds: Int64, ageNanoseconds: Int64?) {
        self.overheadNanoseconds = overheadNanoseconds
        self.ageNanoseconds = ageNanoseconds
    }
}

/// Order statistics of a set of samples (nearest-rank percentiles).
public struct SampleSummary: Sendable, Equatable {
    public var count: Int
    public var p50: Double
    public var p99: Double
    public var max: Double

    /// Nil for no samples.
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            let i = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, i))]
        }
        count = sorted.count
        p50 = rank(0.5)
        p99 = rank(0.99)
        max = sorted[sorted.count - 1]
    }
}
