import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not fully arrived (head and body) within `timeout` of
/// the connection opening or of the previous response ending.
///
/// An idle timeout would not do: it restarts at every byte, so a header sent at one byte a second
/// ("slowloris") held its connection for as long as the client liked, and 300 of them held 300
/// descriptors. The clock starts when the server is waiting for a request and stops when the
/// request's end arrives; a response that streams for hours (`/stream.mjpg`) is not timed.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancel() }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { cancel() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The response is complete: the connection waits for the next request, on the clock.
        if case .end = unwrapOutboundIn(data) { start(context) }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}
