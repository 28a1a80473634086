/// Where and how the preview server listens.
public struct PreviewConfiguration: Sendable, Equatable {
    /// Interface to bind (default loopback: the preview is for the machine's own kiosk browser).
    public var host = "127.0.0.1"
    /// TCP port; 0 lets the system choose a free one (read it from `PreviewServer.start()`).
    public var port = 8080
    /// Concurrent MJPEG clients; the next one gets 503.
    public var maxStreamClients = 8
    /// A stream client whose socket has not accepted a frame for this long is disconnected, so a
    /// stalled client does not hold a slot forever.
    public var stallTimeoutSeconds = 10.0
    /// With no new frame for this long, the latest one is sent again, so clients notice a dead
    /// connection and browsers keep showing the picture.
    public var repeatIntervalSeconds = 1.0
    /// A request (head and body) must arrive within this long of the connection opening or of the
    /// previous response ending, else the connection is closed (`RequestDeadlineHandler`): a
    /// header sent at one byte a second no longer holds a descriptor. Browsers send a request in
    /// milliseconds and open a new connection when an idle one was closed.
    public var requestTimeoutSeconds = 10.0

    public init(host: String = "127.0.0.1", port: Int = 8080, maxStreamClients: Int = 8) {
        self.host = host
        self.port = port
        self.maxStreamClients = maxStreamClients
    }

    /// Parses `HOST:PORT`, `:PORT` or `PORT` (host defaults to loopback); `[::1]:PORT` for IPv6,
    /// or an IPv6 address alone (`::1`: more than one colon and no brackets), on port 8080.
    public static func parse(_ text: String) throws -> (host: String, port: Int) {
        var host = "127.0.0.1"
        var portText = text
        if !text.hasPrefix("["), text.filter({ $0 == ":" }).count > 1 {
            // `::1:8080` is itself an IPv6 address, so a port is only read from brackets.
            guard Authority.canonicalIPv6(text) != nil else {
                throw PreviewError("bad address '\(text)': an IPv6 address with a port is written [ADDRESS]:PORT, e.g. [::1]:8080")
            }
            return (text, 8080)
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw PreviewError("bad address '\(text)': missing ']'") }
            host = String(text[text.index(after: text.startIndex)..<close])
            guard Authority.canonicalIPv6(host) != nil else { throw PreviewError("bad address '\(text)': '\(host)' is not an IPv6 address") }
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw PreviewError("bad address '\(text)': expected [HOST]:PORT") }
            portText = String(rest.dropFirst())
        } else if let colon = text.lastIndex(of: ":") {
            let h = String(text[..<colon])
            if !h.isEmpty { host = h }
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw PreviewError("bad address '\(text)': the port must be 0...65535 (0: any free port)")
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
            throw PreviewError("bad address '\(text)': bad host")
        }
        return (host, port)
    }
}

/// A one-line, user-facing preview server error.
public struct PreviewError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
