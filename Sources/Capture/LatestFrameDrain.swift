/// One buffer as VIDIOC_DQBUF returned it.
public struct DequeuedBuffer: Sendable, Equatable {
    public var index: Int
    public var sequence: UInt32
    public var bytesUsed: Int
    /// The driver set V4L2_BUF_FLAG_ERROR: the data may be corrupt.
    public var flaggedError: Bool
    /// The buffer's timestamp in nanoseconds on CLOCK_MONOTONIC (the dequeue time when the
    /// driver's own timestamps are on another clock; see `monotonicTimestamp`).
    public var timestampNanoseconds: Int64
    /// The driver stamped the buffer on CLOCK_MONOTONIC (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC).
    public var monotonicTimestamp: Bool
    /// CLOCK_MONOTONIC when VIDIOC_DQBUF returned it, in nanoseconds.
    public var dequeuedAtNanoseconds: Int64

    public init(index: Int, sequence: UInt32, bytesUsed: Int, flaggedError: Bool = false,
                timestampNanoseconds: Int64, monotonicTimestamp: Bool = true, dequeuedAtNanoseconds: Int64 = 0) {
        self.index = index
        self.sequence = sequence
        self.bytesUsed = bytesUsed
        self.flaggedError = flaggedError
        self.timestampNanoseconds = timestampNanoseconds
        self.monotonicTimestamp = monotonicTimestamp
        self.dequeuedAtNanoseconds = dequeuedAtNanoseconds
    }
}

/// Latest-frame-wins: take every buffer the driver has ready, give back all but the newest good
/// one at once, so the pipeline always works on the freshest picture and never falls behind the
/// camera (a slow consumer sees fewer frames, not older ones), and the driver never runs short of
/// buffers to fill.
public enum LatestFrameDrain {
    public struct Result: Sendable, Equatable {
        /// The newest buffer without the error flag; the caller owns it and must re-queue it.
        public var newest: DequeuedBuffer?
        /// Good buffers re-queued unread because a newer one was ready.
        public var superseded = 0
        /// Buffers flagged V4L2_BUF_FLAG_ERROR, re-queued unread.
        public var flaggedError = 0
        public var dequeued = 0

        public init() {}
    }

    /// `dequeue` returns nil when no more buffers are ready (EAGAIN). `observe` sees every dequeued
    /// buffer in order (for sequence-gap counting). `limit` bounds the loop against a driver that
    /// refills faster than we drain.
    public static func drain(limit: Int = 64,
                             dequeue: () throws -> DequeuedBuffer?,
                             requeue: (DequeuedBuffer) throws -> Void,
                             observe: (DequeuedBuffer) -> Void = { _ in }) throws -> Result {
        var result = Result()
        while result.dequeued < limit, let buffer = try dequeue() {
            result.dequeued += 1
            observe(buffer)
            if buffer.flaggedError {
                result.flaggedError += 1
                try requeue(buffer)
                continue
            }
            if let older = result.newest {
                result.superseded += 1
                try requeue(older)
            }
            result.newest = buffer
        }
        return result
    }
}
