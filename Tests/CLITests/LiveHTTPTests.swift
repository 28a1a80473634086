import Foundation
import Imaging
import JPEGCodec
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

    /// Issue 23 item 3: a shop model's own `KHR_materials_variants` are offered by the browser
    /// preview as `model:VARIANT` entries, drawn in their colours, and switched over HTTP. The model
    /// is added to a copy of the bundled catalogue (LORGNETTE_MODELS) as a shop would add it.
    @Test(.enabled(if: CLI.available && FileManager.default.fileExists(atPath: LiveHTTPTests.models + "/frames/catalogue.json"),
                   "lorgnette executable or Models/ missing"))
    func aModelsOwnVariantsAreSwitchedInThePreview() throws {
        let dir = try CLIMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let models = try Self.modelsCopy(in: dir)
        try Data(Self.variantModel.utf8).write(to: URL(fileURLWithPath: dir + "/shop.gltf"))
        let environment = ["LORGNETTE_MODELS": models]
        let added = try CLI.run(["catalogue", "--add", dir + "/shop.gltf", "--id", "shop", "--name", "Shop", "--frame-width", "140"],
                                environment: environment)
        #expect(added.status == 0, "\(added.stderr)")

        let running = try CLI.start(["live", "--http", "127.0.0.1:0", "--input", "demo:320x240"], environment: environment)
        defer { if running.process.isRunning { running.process.terminate(); running.process.waitUntilExit() } }
        let port = try #require(LiveHTTP.waitForPort(running, timeout: 60), "no preview URL on stderr")
        #expect(LiveHTTP.waitForStatus(port, timeout: 60) { ($0["frameIndex"] as? Int ?? -1) >= 1 } != nil, "no frame processed")

        // /frames offers the model's variants.
        let frames = try #require(try LiveHTTP.request(port, "GET", "/frames").json?["frames"] as? [[String: Any]])
        let shop = try #require(frames.first { $0["id"] as? String == "shop" }, "the added model is not offered")
        let variants = (shop["variants"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(variants == ["Red", "Blue"])

        // Each variant is drawn in its own colour: the thumbnail's pixels off the grey backdrop.
        func colour(_ spec: String) throws -> SIMD3<Double> {
            let reply = try LiveHTTP.request(port, "GET", "/thumbnail?frame=\(spec)")
            #expect(reply.status == 200, "\(spec): \(reply.text.prefix(200))")
            let image = try TurboJPEGDecoder().decodeRGB(reply.body)
            var sum = SIMD3<Double>.zero, n = 0.0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image[x, y]
                    let c = SIMD3<Double>(Double(p.r), Double(p.g), Double(p.b))
                    guard c.max() - c.min() > 40 else { continue }  // the backdrop is grey
                    sum += c; n += 1
                }
            }
            #expect(n > 100, "\(spec): no coloured pixels in the thumbnail")
            return sum / max(n, 1)
        }
        let red = try colour("shop:Red"), blue = try colour("shop:Blue")
        #expect(red.x > red.z + 40, "shop:Red drawn as \(red)")
        #expect(blue.z > blue.x + 40, "shop:Blue drawn as \(blue)")

        // Switching: the engine draws each variant in turn; an unknown variant is refused.
        for spec in ["shop:Red", "shop:Blue"] {
            let reply = try LiveHTTP.request(port, "POST", "/frame", json: "{\"frame\": \"\(spec)\"}")
            #expect(reply.status == 200, "\(spec): \(reply.text)")
            #expect(LiveHTTP.waitForStatus(port, timeout: 30) { $0["glasses"] as? String == spec } != nil, "the engine never drew \(spec)")
        }
        #expect(try LiveHTTP.request(port, "POST", "/frame", json: #"{"frame": "shop:Green"}"#).status == 422)
        running.process.interrupt()
        _ = try CLI.finish(running, timeout: 60)
    }

    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Models").path

    /// A Models folder in `dir` whose files link to the repository's, with a catalogue of its own.
    static func modelsCopy(in dir: String) throws -> String {
        let fm = FileManager.default
        let copy = dir + "/Models"
        try fm.createDirectory(atPath: copy + "/frames", withIntermediateDirectories: true)
        for item in try fm.contentsOfDirectory(atPath: models) where item != "frames" {
            try fm.createSymbolicLink(atPath: copy + "/" + item, withDestinationPath: models + "/" + item)
        }
        for item in try fm.contentsOfDirectory(atPath: models + "/frames") where item != "catalogue.json" {
            try fm.createSymbolicLink(atPath: copy + "/frames/" + item, withDestinationPath: models + "/frames/" + item)
        }
        try fm.copyItem(atPath: models + "/frames/catalogue.json", toPath: copy + "/frames/catalogue.json")
        return copy
    }

    /// A glasses-sized front (two 50 mm rims and a bridge, metres), grey by default, red in variant
    /// "Red" and blue in "Blue".
    static let variantModel: String = {
        var positions: [Float] = []
        var indices: [UInt16] = []
        for (x0, x1, y0, y1) in [(-0.07, -0.02, -0.02, 0.02), (0.02, 0.07, -0.02, 0.02), (-0.02, 0.02, 0.01, 0.015)] as [(Float, Float, Float, Float)] {
            let base = UInt16(positions.count / 3)
            positions += [x0, y0, 0, x1, y0, 0, x1, y1, 0, x0, y1, 0]
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
        }
        let positionBytes = positions.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
        let indexBytes = indices.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        let bytes = positionBytes + indexBytes
        return """
        {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_materials_variants"],
         "extensions": {"KHR_materials_variants": {"variants": [{"name": "Red"}, {"name": "Blue"}]}},
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(bytes).base64EncodedString())", "byteLength": \(bytes.count)}],
         "bufferViews": [{"buffer": 0, "byteLength": \(positionBytes.count)}, {"buffer": 0, "byteOffset": \(positionBytes.count), "byteLength": \(indexBytes.count)}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": \(positions.count / 3), "type": "VEC3",
                        "min": [-0.07, -0.02, 0], "max": [0.07, 0.02, 0]},
                       {"bufferView": 1, "componentType": 5123, "count": \(indices.count), "type": "SCALAR"}],
         "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1], "metallicFactor": 0}, "doubleSided": true},
                       {"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1], "metallicFactor": 0}, "doubleSided": true},
                       {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 1], "metallicFactor": 0}, "doubleSided": true}],
         "meshes": [{"name": "front", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0,
           "extensions": {"KHR_materials_variants": {"mappings": [{"material": 1, "variants": [0]}, {"material": 2, "variants": [1]}]}}}]}],
         "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}
        """
    }()

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
