import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The live try-on preview over HTTP (Hummingbird 2 on SwiftNIO).
///
/// Routes: `/` the page, `/stream.mjpg` the MJPEG stream (`multipart/x-mixed-replace`, one
/// self-contained JPEG per part, at most `maxStreamClients` at once, 503 beyond), `/snapshot.jpg`
/// the newest frame, `/status` the engine's state as JSON, `/frames` the catalogue,
/// `/thumbnail?frame=SPEC` a frame's picture, `POST /frame` `{"frame": "id[:variant]"}` to switch.
/// Errors are JSON `{"error": "one line"}` with a 4xx/5xx status.
///
/// Threading: `publish` and `update` are for the capture loop and never wait on the network (a
/// pointer swap under a lock); every client runs on its own task and reads the newest frame when it
/// is ready for one, so a slow or stalled client only loses frames itself.
public final class PreviewServer: Sendable {
    public let configuration: PreviewConfiguration
    public let broadcaster = FrameBroadcaster()
    public let clients: StreamClients
    private let control: any PreviewControl
    private let engine = Mutex<EngineState?>(nil)
    private let lastJPEG = Mutex<[UInt8]?>(nil)
    private let thumbnails = Mutex<[String: [UInt8]]>([:])
    private let running = Mutex<Running?>(nil)
    private let specs: Set<String>
    private let boundPort = BoundPort()
    private let executor = ServingExecutor.shared

    public init(configuration: PreviewConfiguration, control: any PreviewControl) {
        self.configuration = configuration
        self.control = control
        clients = StreamClients(limit: configuration.maxStreamClients)
        specs = Set(control.frames.flatMap(\.specs))
    }

    // MARK: Capture side

    /// Hands a new frame to every client and records the engine's state for `/status`.
    @discardableResult
    public func publish(jpeg: [UInt8], state: EngineState?) -> FrameBroadcaster.Published {
        if let state { engine.withLock { $0 = state } }
        lastJPEG.withLock { $0 = jpeg }
        return broadcaster.publish(jpeg: jpeg)
    }

    /// The engine state `/status` reports.
    public var engineState: EngineState? { engine.withLock { $0 } }

    // MARK: Life cycle

    /// Binds and starts serving; returns the port listened on (the chosen one for port 0).
    /// Throws a `PreviewError` when the address cannot be bound.
    public func start() async throws -> Int {
        let router = makeRouter()
        var logger = Logger(label: "lorgnette.preview")
        logger.logLevel = .error
        let bound = BindResult()
        let requestTimeout = TimeAmount.nanoseconds(Int64(configuration.requestTimeoutSeconds * 1e9))
        let boundPort = self.boundPort
        let app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [RequestDeadlineHandler(timeout: requestTimeout)])),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "lorgnette"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                boundPort.set(port)
                bound.resolve(.success(port))
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let host = configuration.host, port = configuration.port
        // Structured children (Hummingbird's connection handlers) inherit the preference.
        let task = Task(executorPreference: executor) {
            do {
                try await group.run()
                bound.resolve(.failure(PreviewError("the preview server stopped before it listened")))
            } catch {
                bound.resolve(.failure(PreviewError("cannot serve on \(host):\(port): \(error)")))
            }
        }
        let repeater = Task(executorPreference: executor) { [weak self] in _ = await self?.repeatStaleFrames() }
        running.withLock { $0 = Running(group: group, task: task, repeater: repeater) }
        do {
            return try await bound.value()
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
    }

    /// `start()` for synchronous callers (a command-line capture loop). Not from a task on Swift's
    /// cooperative pool: it blocks its thread until the server, which runs on that pool, has bound.
    public func startBlocking() throws -> Int {
        let result = BlockingResult<Int>()
        Task { result.set(await Result(catching: { try await self.start() })) }
        return try result.wait()
    }

    /// Ends every stream and stops listening (graceful: requests in flight are answered).
    public func shutdown() async {
        broadcaster.close()
        guard let run = running.withLock({ r -> Running? in defer { r = nil }; return r }) else { return }
        run.repeater.cancel()
        await run.group.triggerGracefulShutdown()
        await run.task.value
    }

    /// `shutdown()` for synchronous callers, waiting at most `timeoutSeconds`. Not from a task on
    /// Swift's cooperative pool (it blocks the thread the shutdown may need).
    public func stop(timeoutSeconds: Double = 2) {
        let done = DispatchSemaphore(value: 0)
        Task { await shutdown(); done.signal() }
        _ = done.wait(timeout: .now() + timeoutSeconds)
    }

    /// Re-sends the newest frame when none came for `repeatIntervalSeconds`: a paused source still
    /// shows its picture, and a client that went away is noticed at the next write.
    private func repeatStaleFrames() async {
        let interval = configuration.repeatIntervalSeconds
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(interval * 1e9 / 2))
            guard let latest = broadcaster.latest,
                  Double(DispatchTime.now().uptimeNanoseconds &- latest.publishedAtNanoseconds) / 1e9 >= interval,
                  let jpeg = lastJPEG.withLock({ $0 }) else { continue }
            broadcaster.publish(jpeg: jpeg)
        }
    }

    // MARK: Routes

    private func makeRouter() -> Router<PreviewRequestContext> {
        let router = Router(context: PreviewRequestContext.self)
        router.middlewares.add(ErrorMessageMiddleware())
        router.middlewares.add(SameOriginMiddleware(boundHost: configuration.host, boundPort: boundPort))
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: PreviewPage.html)))
        }
        router.get("stream.mjpg") { [self] _, context in streamResponse(channel: context.channel) }
        router.get("snapshot.jpg") { [self] _, _ in
            guard let jpeg = lastJPEG.withLock({ $0 }) else {
                return ErrorMessage.response(.serviceUnavailable, "no frame yet: the engine has not produced one")
            }
            return Self.jpegResponse(jpeg)
        }
        router.get("status") { [self] _, _ in
            let status = PreviewStatus(engine: engineState, stream: .init(maxClients: clients.limit, clients: clients.snapshots,
                                                                           refused: clients.refusedCount,
                                                                           latestSequence: broadcaster.latest?.sequence ?? 0))
            return try Self.jsonResponse(status)
        }
        router.get("frames") { [self] _, _ in
            try Self.jsonResponse(GlassesList(frames: control.frames, selected: engineState?.selectedGlasses))
        }
        router.get("thumbnail") { [self] request, _ in
            guard let spec = request.uri.queryParameters.get("frame"), !spec.isEmpty else {
                return ErrorMessage.response(.badRequest, "missing ?frame=id[:variant]")
            }
            guard specs.contains(spec) else { return ErrorMessage.response(.notFound, "unknown frame '\(spec.prefix(80))'") }
            if let cached = thumbnails.withLock({ $0[spec] }) { return Self.jpegResponse(cached, cache: true) }
            do {
                let jpeg = try control.thumbnail(spec)
                thumbnails.withLock { $0[spec] = jpeg }
                return Self.jpegResponse(jpeg, cache: true)
            } catch {
                return ErrorMessage.response(.internalServerError, "cannot render '\(spec)': \(error)")
            }
        }
        router.post("frame") { [self] request, _ in try await selectFrame(request) }
        return router
    }

    private static let maxChoiceBytes = 4096
    /// Bodies up to this size are read in full before a 413, so the client reliably gets the answer
    /// (closing on unread data would reset the connection and could drop the response).
    private static let drainedBodyBytes = 65536

    private func selectFrame(_ request: Request) async throws -> Response {
        guard let type = request.headers[.contentType], ParsedMediaType(type) == .json else {
            let got = request.headers[.contentType].map { "got \($0.prefix(100))" } ?? "got no Content-Type"
            return ErrorMessage.response(.unsupportedMediaType, "send JSON {\"frame\": \"id[:variant]\"} with Content-Type: application/json, \(got)")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.drainedBodyBytes)
        } catch {
            return ErrorMessage.response(.contentTooLarge, "the request body is over \(Self.maxChoiceBytes) bytes")
        }
        guard body.readableBytes <= Self.maxChoiceBytes else {
            return ErrorMessage.response(.contentTooLarge, "the request body is over \(Self.maxChoiceBytes) bytes")
        }
        struct Choice: Decodable { let frame: String }
        let choice: Choice
        do {
            choice = try JSONDecoder().decode(Choice.self, from: Data(body.readableBytesView))
        } catch {
            return ErrorMessage.response(.badRequest, "expected JSON {\"frame\": \"id[:variant]\"}")
        }
        guard specs.contains(choice.frame) else {
            return ErrorMessage.response(.unprocessableContent, "unknown frame '\(choice.frame.prefix(80))' (GET /frames lists them)")
        }
        do {
            try control.select(choice.frame)
        } catch {
            return ErrorMessage.response(.internalServerError, "cannot switch to '\(choice.frame)': \(error)")
        }
        return try Self.jsonResponse(["frame": choice.frame])
    }

    private func streamResponse(channel: any Channel) -> Response {
        guard let client = clients.acquire() else {
            return ErrorMessage.response(.serviceUnavailable,
                                         "too many stream clients (limit \(clients.limit)); try again later",
                                         headers: [.retryAfter: "5"])
        }
        let broadcaster = self.broadcaster
        let stallNanoseconds = UInt64(configuration.stallTimeoutSeconds * 1e9)
        let executor = self.executor
        let body = ResponseBody { writer in
            defer { client.release() }
            let watch = WriteWatch()
            let watchdog = Task(executorPreference: executor) {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: max(stallNanoseconds / 4, 1_000_000))
                    if watch.stalled(longerThan: stallNanoseconds) { channel.close(promise: nil); return }
                }
            }
            defer { watchdog.cancel() }
            watch.begin()
            try await writer.write(MJPEGPart.preamble())
            watch.end()
            var last: UInt64 = 0
            while let frame = await broadcaster.next(after: last) {
                watch.begin()
                try await writer.write(frame.part)
                watch.end()
                client.recordSent(skipped: last == 0 ? 0 : Int(frame.sequence - last - 1))
                last = frame.sequence
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok,
                        headers: [.contentType: MJPEGPart.contentType(), .cacheControl: "no-store", .connection: "close"],
                        body: body)
    }

    private static func jpegResponse(_ jpeg: [UInt8], cache: Bool = false) -> Response {
        Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: cache ? "max-age=3600" : "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
    }

    static func jsonResponse(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The server's service group and the tasks that run it.
private struct Running: Sendable {
    let group: ServiceGroup
    let task: Task<Void, Never>
    let repeater: Task<Void, Never>
}

/// `/frames`: the catalogue and the frame chosen now.
struct GlassesList: Encodable {
    let frames: [PreviewFrame]
    let selected: String?
}

/// Hummingbird's request context plus the connection's channel (the stall watchdog closes it).
struct PreviewRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// When the current write began (0: not writing), for the stall watchdog.
private final class WriteWatch: Sendable {
    private let startedAt = Atomic<UInt64>(0)
    func begin() { startedAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }
    func end() { startedAt.store(0, ordering: .relaxed) }
    func stalled(longerThan nanoseconds: UInt64) -> Bool {
        let t = startedAt.load(ordering: .relaxed)
        return t != 0 && DispatchTime.now().uptimeNanoseconds &- t > nanoseconds
    }
}

/// The port the server bound, or why it could not; resolved once.
private final class BindResult: Sendable {
    private let state = Mutex<(result: Result<Int, any Error>?, waiter: CheckedContinuation<Int, any Error>?)>((nil, nil))

    func resolve(_ result: Result<Int, any Error>) {
        let waiter: CheckedContinuation<Int, any Error>? = state.withLock { s in
            guard s.result == nil else { return nil }
            s.result = result
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { s in
                if let r = s.result { return r }
                s.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// Hands an async result to a thread that blocks for it.
private final class BlockingResult<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ value: Result<Value, any Error>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() throws -> Value {
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
