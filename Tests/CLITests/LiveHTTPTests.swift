import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `lorgnette live --http`: the real engine served to real clients (raw HTTP, ffprobe, headless
/// Chromium), frames switched over HTTP and by a click in the page.
@Suite(.serialized)
struct LiveHTTPTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let ffprobe: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: CLI.available, "lorgnette executable not built"))
    func liveServesThePreviewAndSwitchesFrames() throws {
        let running = try CLI.start(["live", "--http", "127.0.0.1:0", "--input", "demo:320x240"])
        defer { if running.process.isRunning { running.process.terminate(); running.process.waitUntilExit() } }
        let port = try #require(LiveHTTP.waitForPort(running, timeout: 60), "no preview URL on stderr")

        // The engine runs and tracks the demo face.
        let first = LiveHTTP.waitForStatus(port, timeout: 60) { ($0["frameIndex"] as? Int ?? -1) >= 1 }
        let status = try #require(first, "no frame processed")
        #expect((status["tracking"] as? [String: Any])?["state"] as? String == "tracking")
        #expect(status["width"] as? Int == 320 && status["height"] as? Int == 240)
        #expect((status["fps"] as? Double ?? 0) > 0)
        #expect(status["latencyMs"] is Double)
        let initial = try #require(status["glasses"] as? String)

        // The page, the catalogue and an engine-rendered thumbnail.
        let page = try LiveHTTP.request(port, "GET", "/")
        #expect(page.status == 200 && page.text.contains("stream.mjpg"))
        let frames = try #require(try LiveHTTP.request(port, "GET", "/frames").json?["frames"] as? [[String: Any]])
        let ids = frames.compactMap { $0["id"] as? String }
        #expect(ids.count >= 3 && ids.first == initial)
        let thumbnail = try LiveHTTP.request(port, "GET", "/thumbnail?frame=\(ids[1])")
        #expect(thumbnail.status == 200 && thumbnail.body.prefix(2) == [0xFF, 0xD8])

        // The stream: parts with type and length, each a whole JPEG of the try-on.
        let parts = try LiveHTTP.readParts(port, count: 2)
        #expect(parts.count == 2)
        for part in parts { #expect(part.prefix(2) == [0xFF, 0xD8] && part.suffix(2) == [0xFF, 0xD9]) }
        if let ffprobe = Self.ffprobe {
            let probe = try LiveHTTP.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height",
                                                   "-of", "csv=p=0", "http://127.0.0.1:\(port)/stream.mjpg"])
            #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,320,240")
        }

        // Switch over HTTP: the next frames are drawn with the chosen glasses.
        let chosen = "\(ids[1]):" + ((frames[1]["variants"] as? [[String: Any]])?.last?["id"] as? String ?? "")
        let reply = try LiveHTTP.request(port, "POST", "/frame", json: "{\"frame\": \"\(chosen)\"}")
        #expect(reply.status == 200, "\(reply.text)")
        #expect(LiveHTTP.waitForStatus(port, timeout: 30) { $0["glasses"] as? String == chosen } != nil, "the engine never drew \(chosen)")
        // The light estimated on the face is reported.
        let lit = LiveHTTP.waitForStatus(port, timeout: 30) { $0["light"] is [String: Any] }
        #expect(((lit?["light"] as? [String: Any])?["ambientIntensity"] as? Double ?? 0) > 0, "no light estimate in /status")
        #expect(try LiveHTTP.request(port, "POST", "/frame", json: #"{"frame": "no-such-frame"}"#).status == 422)
        #expect(try LiveHTTP.request(port, "GET", "/no-such-page").status == 404)

        // Switch by a click in the real browser.
        if let chromium = Self.chromium {
            let profile = NSTemporaryDirectory() + "lorgnette-live-chromium-\(UUID().uuidString.prefix(8))"
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let dom = try LiveHTTP.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                                                  "--user-data-dir=\(profile)", "--virtual-time-budget=4000", "--dump-dom",
                                                  "http://127.0.0.1:\(port)/?click=\(ids[2])"])
            #expect(dom.contains("data-frames=\"\(ids.count)\""), "the carousel was not built")
            #expect(LiveHTTP.waitForStatus(port, timeout: 30) { $0["glasses"] as? String == ids[2] } != nil,
                    "clicking \(ids[2]) in Chromium did not change the rendered glasses")
        }

        // Ctrl-C ends the served run cleanly; no video file is written without -o.
        running.process.interrupt()
        let result = try CLI.finish(running, timeout: 60)
        #expect(result.status == 130)
        #expect(result.stdout.contains("-> no file"), "\(result.stdout)")
    }

    @Test(.enabled(if: CLI.available, "lorgnette executable not built"))
    func aBadAddressIsAOneLineError() throws {
        for address in ["127.0.0.1:99999", "host:port", "[::1]80"] {
            let result = try CLI.run(["live", "--http", address, "--input", "demo", "--frames", "1"], timeout: 60)
            #expect(result.status != 0)
            #expect(result.stderr.contains("--http"), "\(address): \(result.stderr)")
            #expect(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count <= 3)
        }
    }
}

/// A few plain HTTP/1.1 requests over loopback sockets for the tests above.
private enum LiveHTTP {
    struct Reply {
        var status: Int
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }
    }

    /// The port in the `live: preview at http://HOST:PORT/` line on stderr.
    static func waitForPort(_ running: CLI.Running, timeout: Double) -> Int? {
        let handle = running.err.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, running.process.isRunning {
            text += String(decoding: handle.availableData, as: UTF8.self)
            if let range = text.range(of: #"preview at http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                return Int(text[range].split(separator: ":").last!.dropLast())
            }
        }
        return nil
    }

    static func waitForStatus(_ port: Int, timeout: Double, _ condition: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = try? request(port, "GET", "/status").json, condition(status) { return status }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return nil
    }

    static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw CocoaError(.fileReadUnknown) }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Reads until `enough` says the bytes so far suffice, or the peer closes.
    static func receive(_ fd: Int32, until enough: ([UInt8]) -> Bool) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !enough(data) {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        return data
    }

    static func request(_ port: Int, _ method: String, _ path: String, json: String? = nil) throws -> Reply {
        let fd = try connect(port)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        send(fd, Array((head + "\r\n").utf8) + body)
        let raw = receive(fd) { _ in false }
        guard let split = find(Array("\r\n\r\n".utf8), in: raw) else { return Reply(status: 0, body: []) }
        let statusLine = String(decoding: raw[..<split], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Reply(status: status, body: Array(raw[(split + 4)...]))
    }

    /// The JPEGs of the first `count` parts of `/stream.mjpg`.
    static func readParts(_ port: Int, count: Int) throws -> [[UInt8]] {
        let fd = try connect(port)
        defer { close(fd) }
        send(fd, Array("GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        var jpegs: [[UInt8]] = []
        let raw = receive(fd) { data in
            jpegs = parts(data)
            return jpegs.count >= count
        }
        _ = raw
        return Array(jpegs.prefix(count))
    }

    /// Complete parts (by their Content-Length) in `data`.
    static func parts(_ data: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [], from = 0
        let marker = Array("Content-Length: ".utf8)
        while let m = find(marker, in: data, from: from) {
            guard let lineEnd = find(Array("\r\n".utf8), in: data, from: m), let length = Int(String(decoding: data[(m + marker.count)..<lineEnd], as: UTF8.self)),
                  let headEnd = find(Array("\r\n\r\n".utf8), in: data, from: m), headEnd + 4 + length <= data.count else { break }
            out.append(Array(data[(headEnd + 4)..<(headEnd + 4 + length)]))
            from = headEnd + 4 + length
        }
        return out
    }

    static func find(_ needle: [UInt8], in data: [UInt8], from start: Int = 0) -> Int? {
        guard data.count >= needle.count, start <= data.count - needle.count else { return nil }
        var i = start
        while i <= data.count - needle.count {
            if data[i] == needle[0] && Array(data[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    /// A tool's stdout (stderr discarded), killed after 60 s.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return String(decoding: data, as: UTF8.self)
    }
}
