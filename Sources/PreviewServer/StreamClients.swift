import Dispatch
import Synchronization

/// The MJPEG clients connected now, at most `limit` of them, with what each was sent.
///
/// A slot is taken before the response starts (so the request beyond the limit gets a 503) and
/// given back when its `StreamClient` is released — when the stream ends, its write fails, or the
/// response is dropped before it started (the handle's deinit), so a vanished client never keeps a slot.
public final class StreamClients: Sendable {
    /// What `/status` reports per client.
    public struct Snapshot: Sendable, Codable, Equatable {
        public var id: Int
        /// Frames written to this client.
        public var framesSent: Int
        /// Frames published while this client was still writing an older one (dropped for it).
        public var framesSkipped: Int
        /// Seconds since it connected.
        public var connectedSeconds: Double
    }

    private struct Entry {
        var framesSent = 0
        var framesSkipped = 0
        var connectedAt: UInt64
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 1
        var refused = 0
    }

    public let limit: Int
    private let state = Mutex(State())

    public init(limit: Int) {
        precondition(limit > 0, "the client limit must be positive")
        self.limit = limit
    }

    /// A slot for a new client, or nil when `limit` clients are connected.
    public func acquire() -> StreamClient? {
        let id: Int? = state.withLock { s in
            guard s.entries.count < limit else { s.refused += 1; return nil }
            let id = s.nextID
            s.nextID += 1
            s.entries[id] = Entry(connectedAt: DispatchTime.now().uptimeNanoseconds)
            return id
        }
        return id.map { StreamClient(id: $0, registry: self) }
    }

    /// Clients connected now.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Requests refused with 503 since start.
    public var refusedCount: Int { state.withLock { $0.refused } }

    public var snapshots: [Snapshot] {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { s in
            s.entries.sorted { $0.key < $1.key }.map { id, e in
                Snapshot(id: id, framesSent: e.framesSent, framesSkipped: e.framesSkipped,
                         connectedSeconds: Double(now &- e.connectedAt) / 1e9)
            }
        }
    }

    fileprivate func recordSent(_ id: Int, skipped: Int) {
        state.withLock { s in
            s.entries[id]?.framesSent += 1
            s.entries[id]?.framesSkipped += skipped
        }
    }

    fileprivate func release(_ id: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }
}

/// One connected MJPEG client's slot in `StreamClients`; released exactly once (explicitly or on deinit).
public final class StreamClient: Sendable {
    public let id: Int
    private let registry: StreamClients
    private let released = Atomic<Bool>(false)

    fileprivate init(id: Int, registry: StreamClients) {
        self.id = id
        self.registry = registry
    }

    /// Counts a frame written; `skipped` frames were published since the previous one.
    public func recordSent(skipped: Int) { registry.recordSent(id, skipped: skipped) }

    public func release() {
        if !released.exchange(true, ordering: .acquiringAndReleasing) { registry.release(id) }
    }

    deinit { release() }
}
