import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A deliberately plain HTTP/1.1 client over a blocking loopback socket, so the tests control
/// exactly how fast (or whether) a client reads, and can drop the connection mid-part.
final class LoopbackConnection: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (slow clients).
    init(port: Int, receiveBuffer: Int32? = nil, timeoutSeconds: Int = 60) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPError("socket() failed") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw TestHTTPError("connect to port \(port) failed") }
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestHTTPError("send failed") }
            sent += n
        }
    }

    /// Reads at most `count` more bytes into the buffer; false at end of stream or timeout.
    @discardableResult
    func fill(max count: Int = 65536) -> Bool {
        var chunk = [UInt8](repeating: 0, count: count)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Bytes up to and including `delimiter`, reading as needed; nil if the stream ends first.
    func read(through delimiter: [UInt8]) -> [UInt8]? {
        var searchFrom = 0
        while true {
            if let range = firstRange(of: delimiter, from: searchFrom) {
                let out = Array(buffer[..<range.upperBound])
                buffer.removeFirst(range.upperBound)
                return out
            }
            searchFrom = max(0, buffer.count - delimiter.count + 1)
            if !fill() { return nil }
        }
    }

    /// Exactly `count` bytes, reading as needed; nil if the stream ends first.
    func read(exactly count: Int) -> [UInt8]? {
        while buffer.count < count { if !fill(max: max(65536, count - buffer.count)) { return nil } }
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        return out
    }

    /// Everything until the peer closes.
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func firstRange(of needle: [UInt8], from start: Int) -> Range<Int>? {
        guard buffer.count >= needle.count, start <= buffer.count - needle.count else { return nil }
        for i in start...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if Array(buffer[i..<(i + needle.count)]) == needle { return i..<(i + needle.count) }
        }
        return nil
    }
}

struct TestHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A complete HTTP response.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }
}

enum LoopbackHTTP {
    /// One request on a fresh connection (`Connection: close`), the whole response read.
    static func request(port: Int, method: String = "GET", path: String, contentType: String? = nil,
                        body: [UInt8] = []) throws -> HTTPReply {
        let connection = try LoopbackConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if method != "GET" || !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try connection.send(Array((head + "\r\n").utf8) + body)
        guard let headBytes = connection.read(through: Array("\r\n\r\n".utf8)) else { throw TestHTTPError("no response head for \(method) \(path)") }
        let (status, headers) = try parseHead(headBytes)
        var payload: [UInt8]
        if let length = headers["content-length"].flatMap(Int.init) {
            payload = connection.read(exactly: length) ?? []
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            payload = []
            while let line = connection.read(through: Array("\r\n".utf8)),
                  let size = Int(String(decoding: line.dropLast(2), as: UTF8.self).split(separator: ";")[0], radix: 16), size > 0 {
                payload += connection.read(exactly: size) ?? []
                _ = connection.read(exactly: 2)
            }
        } else {
            payload = connection.readToEnd()
        }
        return HTTPReply(status: status, headers: headers, body: payload)
    }

    static func get(_ port: Int, _ path: String) throws -> HTTPReply { try request(port: port, path: path) }

    static func postJSON(_ port: Int, _ path: String, _ json: String) throws -> HTTPReply {
        try request(port: port, method: "POST", path: path, contentType: "application/json", body: Array(json.utf8))
    }

    static func parseHead(_ bytes: [UInt8]) throws -> (Int, [String: String]) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw TestHTTPError("bad status line '\(lines[0])'") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }
}

/// An MJPEG client reading parts off `/stream.mjpg` as fast as the test lets it.
final class MJPEGReader: @unchecked Sendable {
    struct Part {
        var headers: [String: String]
        var jpeg: [UInt8]
        var sequence: Int { Int(headers["x-frame-sequence"] ?? "") ?? -1 }
    }

    let connection: LoopbackConnection
    let status: Int
    let headers: [String: String]
    let boundary: [UInt8]

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        connection = try LoopbackConnection(port: port, receiveBuffer: receiveBuffer)
        try connection.send("GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        guard let head = connection.read(through: Array("\r\n\r\n".utf8)) else { throw TestHTTPError("no stream response") }
        (status, headers) = try LoopbackHTTP.parseHead(head)
        let type = headers["content-type"] ?? ""
        let token = type.components(separatedBy: "boundary=").last ?? ""
        boundary = Array("--\(token)\r\n".utf8)
        if status == 200 {
            guard connection.read(through: boundary) != nil else { throw TestHTTPError("no opening boundary") }
        }
    }

    /// The next part (its headers and JPEG, and the delimiter after it), or nil when the stream ends.
    func nextPart() -> Part? {
        guard let head = connection.read(through: Array("\r\n\r\n".utf8)) else { return nil }
        var headers: [String: String] = [:]
        for line in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let length = headers["content-length"].flatMap(Int.init), let jpeg = connection.read(exactly: length),
              connection.read(exactly: 2) == Array("\r\n".utf8), connection.read(exactly: boundary.count) == boundary else { return nil }
        return Part(headers: headers, jpeg: jpeg)
    }
}
