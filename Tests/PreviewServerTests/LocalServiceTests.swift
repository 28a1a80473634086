import Foundation
import PreviewServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 25: the preview is a local service only its own page drives. The requests below are the
/// ones a cross-origin page or a DNS-rebinding attack can make a browser send, with the exact
/// headers of the issue.
@Suite(.serialized)
struct LocalServiceTests {
    /// Sends `head` (request line and header lines, without the blank line) and `body`; the status.
    static func status(_ port: Int, _ head: String, body: String = "") throws -> (Int, String) {
        // The suite's 60 s receive timeout: in a full parallel `swift test` on two cores the server
        // may take more than 10 s to answer (a 10 s timeout here failed once that way).
        let connection = try LoopbackConnection(port: port)
        try connection.send(head + "\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        let reply = connection.readToEnd()
        let text = String(decoding: reply, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]) else { throw TestHTTPError("no status in '\(text.prefix(80))'") }
        return (code, text)
    }

    @Test func frameSwitchNeedsJSONAsAMediaType() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            let choice = #"{"frame": "square-52"}"#
            let cases: [(String?, Int)] = [
                ("text/plain; charset=json", 415), ("text/plain;json", 415), ("multipart/form-data; boundary=json", 415),
                (nil, 415), ("application/jsonx", 415), ("application/x-json", 415), ("json", 415),
                ("application/json", 200), ("Application/JSON; charset=utf-8", 200), ("application/json ; charset=\"utf-8\"", 200),
            ]
            for (type, expected) in cases {
                let head = "POST /frame HTTP/1.1\r\nHost: 127.0.0.1:\(port)" + (type.map { "\r\nContent-Type: \($0)" } ?? "")
                let (code, text) = try await blocking { try Self.status(port, head, body: choice) }
                #expect(code == expected, "Content-Type \(type ?? "(none)"): \(code) \(text.suffix(120))")
            }
            #expect(harness.control.selections == ["square-52", "square-52", "square-52"])
        }
    }

    @Test func crossOriginRequestsAreRefused() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            let post = "POST /frame HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json"
            let body = #"{"frame": "square-52"}"#
            for origin in ["http://evil.example", "http://evil.example:\(port)", "null", "https://127.0.0.1:\(port)",
                           "http://127.0.0.1:\(port + 1)", "http://localhost:\(port)", "http://127.0.0.1"] {
                let (code, text) = try await blocking { try Self.status(port, post + "\r\nOrigin: \(origin)", body: body) }
                #expect(code == 403, "Origin \(origin): \(code) \(text.suffix(100))")
                let (get, _) = try await blocking { try Self.status(port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: \(origin)") }
                #expect(get == 403, "GET /status with Origin \(origin): \(get)")
            }
            #expect(harness.control.selections.isEmpty)
            // The page's own origin, and no Origin at all (a same-origin GET, curl), are served.
            let (same, text) = try await blocking { try Self.status(port, post + "\r\nOrigin: http://127.0.0.1:\(port)", body: body) }
            #expect(same == 200, "\(text)")
            let (plain, _) = try await blocking { try Self.status(port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1:\(port)") }
            #expect(plain == 200)
        }
    }

    @Test func dnsRebindingHostsAreRefused() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.nip.io:\(port)", "127.0.0.1:\(port + 1)", "localhost:80",
                         "localhost.:\(port)", "[::1]:\(port)", "0.0.0.0:\(port)"] {
                for path in ["/status", "/", "/snapshot.jpg", "/stream.mjpg"] {
                    let (code, text) = try await blocking { try Self.status(port, "GET \(path) HTTP/1.1\r\nHost: \(host)") }
                    #expect(code == 421, "Host \(host) \(path): \(code) \(text.suffix(100))")
                }
            }
            let (missing, _) = try await blocking { try Self.status(port, "GET /status HTTP/1.0") }
            #expect(missing == 421)
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "127.0.0.1"] {
                let (code, _) = try await blocking { try Self.status(port, "GET /status HTTP/1.1\r\nHost: \(host)") }
                #expect(code == 200, "Host \(host)")
            }
        }
    }

    /// A server with a 1 s request timeout on a free loopback port, for `body`.
    static func withShortTimeout(_ body: (PreviewServer, Int) async throws -> Void) async throws {
        var configuration = PreviewConfiguration(host: "127.0.0.1", port: 0)
        configuration.requestTimeoutSeconds = 1
        let server = PreviewServer(configuration: configuration, control: FakeControl())
        let port = try await server.start()
        do { try await body(server, port) } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func aSlowHeaderIsDroppedWithinTheTimeout() async throws {
        try await Self.withShortTimeout { _, port in
        // One byte every 0.2 s: never idle for long, never complete. The server closes at ~1 s.
        let (closedAfter, sent, answered) = try await blocking { () throws -> (Double, Int, Bool) in
            let connection = try LoopbackConnection(port: port, timeoutSeconds: 10)
            let header = Array("GET /status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: \(String(repeating: "a", count: 100))\r\n\r\n".utf8)
            let start = Date()
            var sent = 0
            for byte in header {
                guard (try? connection.send([byte])) != nil else { break }
                sent += 1
                var probe = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
                if poll(&probe, 1, 200) > 0 { break }  // the server closed (or answered)
                if Date().timeIntervalSince(start) > 8 { break }
            }
            let answered = !connection.readToEnd().isEmpty
            return (Date().timeIntervalSince(start), sent, answered)
        }
        #expect(!answered, "the server answered a header it should have dropped")
        #expect(closedAfter < 2.5, "closed after \(closedAfter) s, \(sent) bytes sent")
        #expect(sent < 40)
        // A request sent at once is still answered.
        let (code, _) = try await blocking { try Self.status(port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1:\(port)") }
        #expect(code == 200)
        }
    }

    /// The clock stops when a request has arrived: a stream runs far past the timeout.
    @Test func aStreamOutlivesTheRequestTimeout() async throws {
        try await Self.withShortTimeout { server, port in
        let frames = try TestFrames.jpegs(count: 2, width: 64, height: 48)
        let feeding = Task.detached {
            var i = 0
            while !Task.isCancelled { server.publish(jpeg: frames[i % 2], state: nil); i += 1; try? await Task.sleep(nanoseconds: 50_000_000) }
        }
        defer { feeding.cancel() }
        let parts = try await blocking { () throws -> Int in
            let reader = try MJPEGReader(port: port)
            let start = Date()
            var parts = 0
            while Date().timeIntervalSince(start) < 2.5, reader.nextPart() != nil { parts += 1 }
            return parts
        }
        #expect(parts >= 30, "the stream stopped after \(parts) parts")
        }
    }

    @Test func ipv6LoopbackIsServedWithItsOwnHost() async throws {
        let (host, port) = try PreviewConfiguration.parse("[::1]:0")
        #expect(host == "::1" && port == 0)
        let server = PreviewServer(configuration: PreviewConfiguration(host: host, port: 0), control: FakeControl())
        let bound: Int
        do { bound = try await server.start() } catch {
            // No IPv6 loopback in this environment: the parsing above is still checked.
            return
        }
        let replies = try? await blocking { () throws -> (String, String) in
            (try Self.ipv6Request(port: bound, host: "[::1]:\(bound)"), try Self.ipv6Request(port: bound, host: "evil.example:\(bound)"))
        }
        await server.shutdown()
        let (ok, refused) = try #require(replies)
        #expect(ok.hasPrefix("HTTP/1.1 200"), "\(ok.prefix(80))")
        #expect(refused.hasPrefix("HTTP/1.1 421"), "\(refused.prefix(80))")
    }

    @Test func listenAddressesParse() throws {
        #expect(try PreviewConfiguration.parse("::1") == ("::1", 8080))
        #expect(try PreviewConfiguration.parse("[::1]:9000") == ("::1", 9000))
        #expect(try PreviewConfiguration.parse("[::]:0") == ("::", 0))
        #expect(try PreviewConfiguration.parse("127.0.0.1:80") == ("127.0.0.1", 80))
        #expect(try PreviewConfiguration.parse(":81") == ("127.0.0.1", 81))
        #expect(try PreviewConfiguration.parse("82") == ("127.0.0.1", 82))
        for bad in ["::1:x:y", "[::1", "[::1]8080", "[nothost]:80", "[::1]:70000", "host:"] {
            #expect(throws: PreviewError.self, "\(bad)") { try PreviewConfiguration.parse(bad) }
        }
    }

    /// One GET /status over IPv6 loopback with the given Host; the raw response.
    static func ipv6Request(port: Int, host: String) throws -> String {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPError("socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET6, "::1", &address.sin6_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        guard connected == 0 else { throw TestHTTPError("connect [::1]:\(port)") }
        let request = Array("GET /status HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            reply += chunk[0..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
