// The HTTP preview's added latency: from a try-on frame being ready (PreviewServer.publish) to the
// last byte of its MJPEG part at every one of 4 loopback clients. One iteration = one frame: publish,
// then wait until every client has read the whole part (so p99 of the wall clock is the bar's number).
// Run: cd Bench && swift package -c release benchmark --target HTTPBenchmarks
import Benchmark
import Dispatch
import Foundation
import Imaging
import JPEGCodec
import Media
import PreviewServer
#if canImport(Glibc)
import Glibc
#endif

/// A 720p webcam-like try-on frame: the bundled portrait through the demo camera, JPEG q85.
func demoJPEG(width: Int, height: Int) -> [UInt8] {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let photoBytes = try! [UInt8](Data(contentsOf: repo.appendingPathComponent("Models/demo/astronaut.jpg")))
    let photo = try! TurboJPEGDecoder().decodeRGB(photoBytes)
    let source = DemoSource(photo: photo, focus: DemoSource.astronautFocus, span: DemoSource.astronautSpan,
                            width: width, height: height, frameCount: 1)
    guard case .rgb(let rgb) = try! source.nextFrame()!.payload else { fatalError("demo source gives RGB") }
    return try! TurboJPEGEncoder().encode(rgb, quality: 85)
}

/// The catalogue the benchmark's server lists: none (only the stream is measured).
struct NoCatalogue: PreviewControl {
    var frames: [PreviewFrame] { [] }
    func thumbnail(_ spec: String) throws -> [UInt8] { throw PreviewError("no catalogue") }
    func select(_ spec: String) throws { throw PreviewError("no catalogue") }
}

/// One MJPEG client on its own thread: reads parts as fast as the socket delivers them and posts
/// `received` after the last byte of each.
final class StreamClient: @unchecked Sendable {
    let received = DispatchSemaphore(value: 0)
    private let fd: Int32

    init(port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(ok == 0, "cannot connect to the preview server")
        let request = Array("GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        Thread { [self] in readParts() }.start()
    }

    private func readParts() {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var filled = 0
        let lengthKey = Array("Content-Length: ".utf8)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, $0.count - filled, 0) }
            if n <= 0 { return }
            filled += n
            // Consume every complete part (headers, JPEG, delimiter line) in the buffer.
            while let key = find(lengthKey, in: buffer, upTo: filled),
                  let lineEnd = find([13, 10], in: buffer, from: key, upTo: filled),
                  let headEnd = find([13, 10, 13, 10], in: buffer, from: key, upTo: filled) {
                let length = Int(String(decoding: buffer[(key + lengthKey.count)..<lineEnd], as: UTF8.self))!
                // The part ends with "\r\n--boundary\r\n"; count it as received at its last byte.
                guard let next = find([13, 10, 45, 45], in: buffer, from: headEnd + 4 + length, upTo: filled),
                      let closing = find([13, 10], in: buffer, from: next + 2, upTo: filled) else { break }
                let used = closing + 2
                buffer.withUnsafeMutableBytes { p in memmove(p.baseAddress!, p.baseAddress! + used, filled - used) }
                filled -= used
                received.signal()
            }
        }
    }

    private func find(_ needle: [UInt8], in data: [UInt8], from start: Int = 0, upTo end: Int) -> Int? {
        guard end - start >= needle.count else { return nil }
        var i = start
        while i <= end - needle.count {
            if data[i] == needle[0] {
                var match = true
                for k in 1..<needle.count where data[i + k] != needle[k] { match = false; break }
                if match { return i }
            }
            i += 1
        }
        return nil
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(5),
        maxIterations: 1_000
    )

    for (width, height, clients) in [(1280, 720, 4), (1280, 720, 1), (640, 480, 4)] {
        let jpeg = demoJPEG(width: width, height: height)
        var configuration = PreviewConfiguration(host: "127.0.0.1", port: 0, maxStreamClients: 8)
        // No keep-alive repeats of a stale frame: every part a client receives is one this loop published.
        configuration.repeatIntervalSeconds = 1e9
        let server = PreviewServer(configuration: configuration, control: NoCatalogue())
        let port = try! server.startBlocking()
        server.publish(jpeg: jpeg, state: nil)
        let readers = (0..<clients).map { _ in StreamClient(port: port) }
        for reader in readers { reader.received.wait() } // each has the first frame

        Benchmark("HTTP publish to last byte, \(clients) clients \(width)x\(height) (\(jpeg.count / 1024) KB)") { benchmark in
            for _ in benchmark.scaledIterations {
                server.publish(jpeg: jpeg, state: nil)
                for reader in readers { reader.received.wait() }
            }
        }
    }
}
