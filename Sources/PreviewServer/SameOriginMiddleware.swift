import Foundation
import Hummingbird
import Synchronization

/// Keeps the preview a local service that only its own page can drive.
///
/// - `Host` must name the server: the address it was bound to (any IP literal when bound to a
///   wildcard address) or `localhost`, with the port it listens on if a port is given; else 421.
///   A DNS-rebinding page (`evil.example` re-pointed at 127.0.0.1) sends its own name as `Host`,
///   so it reads nothing. (The name is what rebinding controls; a portless `Host: 127.0.0.1`, as
///   some scripts send, is accepted.)
/// - `Origin`, when a browser sends one, must be the server's own origin: `http://`, the host of
///   `Host` and the port the server listens on (80 when the origin names none); else 403. A cross-origin page can still send a "simple" POST without
///   a preflight; this is what refuses it (with `ParsedMediaType`'s check on `POST /frame`).
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let boundHost: String
    let boundPort: BoundPort

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let hostText = request.head.authority, let host = Authority(hostText) else {
            return ErrorMessage.response(.misdirectedRequest, "a Host header naming this server is required")
        }
        guard accepts(host) else {
            return ErrorMessage.response(.misdirectedRequest, "Host '\(hostText.prefix(100))' is not this server (use http://localhost:\(boundPort.value)/ or the address it listens on)")
        }
        if let originText = request.headers[.origin] {
            guard originText.hasPrefix("http://"), let origin = Authority(String(originText.dropFirst(7))),
                  origin.host == host.host, (origin.port ?? 80) == boundPort.value else {
                return ErrorMessage.response(.forbidden, "cross-origin request from '\(originText.prefix(100))' refused")
            }
        }
        return try await next(request, context)
    }

    private func accepts(_ authority: Authority) -> Bool {
        if let port = authority.port, port != boundPort.value { return false }
        if authority.host == "localhost" { return true }
        let bound = Authority.normalized(host: boundHost)
        if authority.host == bound { return true }
        // Bound to every interface: any address of the machine, but never a name (a name is what
        // DNS rebinding controls).
        return Authority.isWildcard(bound) && authority.isIPLiteral
    }
}

/// The port the server listens on, known once it has bound (port 0 picks one).
final class BoundPort: Sendable {
    private let port = Atomic<Int>(-1)
    var value: Int { port.load(ordering: .relaxed) }
    func set(_ value: Int) { port.store(value, ordering: .relaxed) }
}

/// `host[:port]` of a `Host` header or an origin: host lowercased, IPv6 literals without brackets
/// and in canonical form (`[0:0::1]` and `[::1]` are one host), port nil when absent.
struct Authority: Equatable {
    let host: String
    let port: Int?
    let isIPLiteral: Bool

    init?(_ text: String) {
        var hostPart: Substring, portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portPart = rest.dropFirst()
            }
            guard let v6 = Self.canonicalIPv6(String(hostPart)) else { return nil }
            host = v6
            isIPLiteral = true
        } else {
            if let colon = text.firstIndex(of: ":") {
                hostPart = text[..<colon]
                portPart = text[text.index(after: colon)...]
            } else {
                hostPart = Substring(text)
            }
            guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == "/" || $0 == "@" || $0 == " " }) else { return nil }
            host = hostPart.lowercased()
            var v4 = in_addr()
            isIPLiteral = inet_pton(AF_INET, host, &v4) == 1
        }
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCII), let p = Int(portPart), (0...65535).contains(p) else { return nil }
            port = p
        } else {
            port = nil
        }
    }

    /// A configured host as `Authority` compares hosts.
    static func normalized(host: String) -> String {
        canonicalIPv6(host) ?? host.lowercased()
    }

    static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" }

    static func canonicalIPv6(_ text: String) -> String? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(cString: buffer)
    }
}
