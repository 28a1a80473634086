import Foundation

/// Hands frames to a slow consumer (a device write) on a thread of its own, keeping only the newest:
/// the producer never waits. A frame still waiting when the next arrives is *superseded* (counted,
/// its buffer reused); every frame the writer took was written, and counts as *delivered*.
///
/// Buffers circulate between the producer and the writer (at most three exist), so a steady run
/// allocates nothing per frame. A write error stops the writer; the producer sees it on its next
/// `submit` or on `finish`.
public final class LatestFrameWriter: @unchecked Sendable {
    public struct Counts: Sendable, Equatable {
        public var delivered = 0
        public var superseded = 0
    }

    private let condition = NSCondition()
    // All below guarded by `condition`.
    private var pending: [UInt8]?
    private var spare: [[UInt8]] = []
    private var stopping = false
    private var running = true
    private var failure: (any Error)?
    private var counts = Counts()
    private let writeFrame: ([UInt8]) throws -> Void

    /// `write` runs on the writer thread, one frame at a time.
    public init(name: String, write: @escaping ([UInt8]) throws -> Void) {
        writeFrame = write
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.start()
    }

    /// Delivered and superseded so far.
    public var snapshot: Counts { condition.withLock { counts } }

    /// Fills a recycled buffer with `fill` (on the caller's thread) and makes it the newest frame.
    /// Throws the writer's error once it has failed.
    public func submit(_ fill: (inout [UInt8]) throws -> Void) throws {
        var buffer = condition.withLock { spare.popLast() } ?? []
        try fill(&buffer)
        try condition.withLock {
            if let failure { throw failure }
            if let old = pending {
                counts.superseded += 1
                spare.append(old)
            }
            pending = buffer
            condition.signal()
        }
    }

    /// Waits until the newest frame is written (or the writer failed), then stops the thread.
    /// Throws the writer's error, if any. Safe to call twice.
    public func finish() throws {
        try condition.withLock {
            stopping = true
            condition.broadcast()
            while running { condition.wait() }
            if let failure { throw failure }
        }
    }

    private func run() {
        condition.lock()
        defer { running = false; condition.broadcast(); condition.unlock() }
        while true {
            while pending == nil && !stopping { condition.wait() }
            guard let frame = pending else { return }  // stopping, nothing left
            pending = nil
            condition.unlock()
            var error: (any Error)?
            do { try writeFrame(frame) } catch let e { error = e }
            condition.lock()
            spare.append(frame)
            if let error {
                failure = error
                return
            }
            counts.delivered += 1
        }
    }
}
