import Dispatch
import Hummingbird
import Synchronization

/// The newest encoded frame, handed to every streaming client without a per-client queue.
///
/// Contract: the capture loop calls `publish` and never waits (a lock held for a pointer swap, then
/// continuations resumed). Each client asks for `next(after:)` the sequence number it sent last and
/// gets the newest frame, so a client slower than the camera skips frames instead of queueing them:
/// memory is one frame plus whatever each client's socket has accepted. `close()` wakes every
/// client with nil so streams end.
public final class FrameBroadcaster: Sendable {
    /// One published frame: the multipart part (headers, JPEG, closing boundary), built once and shared
    /// by every client (ByteBuffer storage is reference-counted, never copied per client).
    public struct Published: Sendable {
        /// 1, 2, 3, ... in publishing order.
        public let sequence: UInt64
        /// The bytes written to each client for this frame.
        public let part: ByteBuffer
        /// Size of the JPEG inside `part`.
        public let jpegBytes: Int
        /// When `publish` was called (`DispatchTime` uptime, nanoseconds).
        public let publishedAtNanoseconds: UInt64
    }

    private struct State {
        var latest: Published?
        var waiters: [Int: CheckedContinuation<Published?, Never>] = [:]
        var nextWaiterID = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let boundary: String

    public init(boundary: String = MJPEGPart.boundary) {
        self.boundary = boundary
    }

    /// The most recent frame, if any.
    public var latest: Published? { state.withLock { $0.latest } }

    /// Makes `jpeg` the newest frame and wakes every client waiting for one. Never blocks on clients.
    @discardableResult
    public func publish(jpeg: [UInt8]) -> Published {
        let now = DispatchTime.now().uptimeNanoseconds
        let sequence = state.withLock { ($0.latest?.sequence ?? 0) + 1 }
        let part = MJPEGPart.make(jpeg: jpeg, sequence: sequence, boundary: boundary)
        let published = Published(sequence: sequence, part: part, jpegBytes: jpeg.count, publishedAtNanoseconds: now)
        let woken: [CheckedContinuation<Published?, Never>] = state.withLock { s in
            guard !s.closed else { return [] }
            // Only the capture loop publishes; if two threads ever raced, keep the sequence monotonic.
            if let current = s.latest, current.sequence >= published.sequence { return [] }
            s.latest = published
            let waiting = Array(s.waiters.values)
            s.waiters.removeAll(keepingCapacity: true)
            return waiting
        }
        for continuation in woken { continuation.resume(returning: published) }
        return published
    }

    /// The newest frame with a sequence above `sequence`, waiting for one if needed; nil once the
    /// broadcaster is closed or the calling task is cancelled.
    public func next(after sequence: UInt64) async -> Published? {
        let id = state.withLock { s -> Int in
            defer { s.nextWaiterID += 1 }
            return s.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Published?, Never>) in
                state.withLock { s in
                    if let latest = s.latest, latest.sequence > sequence {
                        continuation.resume(returning: latest)
                    } else if s.closed || Task.isCancelled {
                        continuation.resume(returning: nil)
                    } else {
                        s.waiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiters.removeValue(forKey: id) }
            continuation?.resume(returning: nil)
        }
    }

    /// Ends every stream: waiting clients get nil now, later calls to `next` get nil at once.
    public func close() {
        let woken: [CheckedContinuation<Published?, Never>] = state.withLock { s in
            s.closed = true
            let waiting = Array(s.waiters.values)
            s.waiters.removeAll()
            return waiting
        }
        for continuation in woken { continuation.resume(returning: nil) }
    }

    /// Clients currently waiting for a newer frame (the rest are writing one).
    public var waitingClients: Int { state.withLock { $0.waiters.count } }
}
