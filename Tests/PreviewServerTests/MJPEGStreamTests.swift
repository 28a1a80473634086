import Foundation
import Imaging
import JPEGCodec
import PreviewServer
import Testing

/// The MJPEG stream with real clients: ffprobe/ffmpeg, raw sockets that read fast, slowly, not at
/// all, or hang up mid-part.
@Suite(.serialized)
struct MJPEGStreamTests {
    @Test func everyPartIsASelfContainedJPEGWithLengthAndType() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            let (status, type, parts) = try await blocking {
                let reader = try MJPEGReader(port: port)
                return (reader.status, reader.headers["content-type"], (0..<6).compactMap { _ in reader.nextPart() })
            }
            #expect(status == 200)
            #expect(type == MJPEGPart.contentType())
            #expect(parts.count == 6)
            for part in parts {
                #expect(part.headers["content-type"] == "image/jpeg")
                #expect(Int(part.headers["content-length"] ?? "") == part.jpeg.count)
                #expect(part.jpeg.prefix(2) == [0xFF, 0xD8] && part.jpeg.suffix(2) == [0xFF, 0xD9])
                var image = RGBImage(width: 1, height: 1)
                try TurboJPEGDecoder().decodeRGB(part.jpeg, scale: .full, into: &image)
                #expect(image.width == 320 && image.height == 240)
            }
            let sequences = parts.map(\.sequence)
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "sequences \(sequences) must increase")
        }
    }

    @Test(.enabled(if: Tool.path("ffprobe") != nil && Tool.path("ffmpeg") != nil,
                   "ffprobe/ffmpeg not installed (bash .ci/setup --test installs them)"))
    func ffprobeAndFFmpegReadTheStream() async throws {
        try await PreviewHarness.with { harness in
            let url = "http://127.0.0.1:\(harness.port)/stream.mjpg"
            let probe = try await blocking {
                try Tool.run(Tool.path("ffprobe")!, ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "stream=codec_name,width,height", "-of", "csv=p=0", url], timeout: 20)
            }
            #expect(probe.status == 0, "ffprobe: \(probe.stderr)")
            #expect(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,320,240")

            // Decode 10 frames to raw RGB: every one must be a whole 320x240 picture of the test pattern.
            let ffmpeg = try await blocking {
                try Tool.run(Tool.path("ffmpeg")!, ["-v", "error", "-i", url, "-frames:v", "10",
                                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], timeout: 20)
            }
            #expect(ffmpeg.status == 0, "ffmpeg: \(ffmpeg.stderr)")
            #expect(ffmpeg.stderr.isEmpty, "ffmpeg complained: \(ffmpeg.stderr)")
            let frameBytes = 320 * 240 * 3
            try #require(ffmpeg.stdout.count == 10 * frameBytes)
            let pixels = [UInt8](ffmpeg.stdout)
            for f in 0..<10 {
                // Row 90 crosses the white test square (rows 60..<120, 60 px wide).
                let base = f * frameBytes + 90 * 320 * 3
                let white = (0..<320).filter { pixels[base + 3 * $0] > 220 && pixels[base + 3 * $0 + 1] > 220 }.count
                #expect(white >= 50, "frame \(f): the test square is missing (\(white) white pixels)")
            }
        }
    }

    @Test func aSlowReaderSkipsFramesWhileTheOthersKeepTheirRate() async throws {
        // 1280x720 noisy frames (a few hundred KB each) so the slow client's socket fills quickly.
        // Three fast clients read alone for 30 published frames, then for 30 more while a fourth reads
        // one byte every 100 ms. Rates are counted per *published* frame, phase by phase, so a machine
        // loaded by the rest of the suite (which slows the publisher and the readers alike) does not
        // decide the outcome; a phase gives up after 60 s.
        // The slow reader gets 10 bytes a second, so it never completes a frame: with the default
        // 10 s stall timeout the watchdog would rightly drop it whenever a loaded machine stretches
        // the slow phase past 10 s. Stalls have their own test; here the timeout is out of the way.
        try await PreviewHarness.with(fps: 25, width: 1280, height: 720, stallTimeout: 300) { harness in
            let port = harness.port
            let (alone, withSlow, publishedAlone, published, clients) = try await blocking { () throws -> ([Int], [Int], Int, Int, [StreamClientCount]) in
                let fast = try (0..<3).map { _ in try MJPEGReader(port: port) }
                let counts = Counter()
                let phase = Counter()  // key 0: 0 = alone, 1 = next to the slow reader, 2 = stop
                let group = DispatchGroup()
                for (i, reader) in fast.enumerated() {
                    DispatchQueue.global().async(group: group) {
                        while phase[0] < 2, reader.nextPart() != nil {
                            counts.add(phase[0] == 0 ? i : 10 + i)
                        }
                    }
                }
                func waitForPublished(_ n: Int, since base: Int, until done: () -> Bool = { true }, while work: () -> Void) {
                    let deadline = Date().addingTimeInterval(60)
                    while (harness.publishedCount - base < n || !done()) && Date() < deadline { work() }
                }
                let base = harness.publishedCount
                // Alone: at least 30 published frames and 10 received by every fast client.
                waitForPublished(30, since: base, until: { (0..<3).allSatisfy { counts[$0] >= 10 } }) { Thread.sleep(forTimeInterval: 0.05) }
                let alone = (0..<3).map { counts[$0] }
                let startSlow = harness.publishedCount
                phase.add(0)
                let slow = try MJPEGReader(port: port, receiveBuffer: 4096)
                // On a loaded machine the server may list the new client a moment later: the slow
                // phase counts from when it is there (it reads as slowly meanwhile).
                let listedBy = Date().addingTimeInterval(30)
                while try harness.streamClients().count < 4 && Date() < listedBy {
                    slow.connection.fill(max: 1)
                    Thread.sleep(forTimeInterval: 0.05)
                }
                waitForPublished(startSlow - base, since: startSlow) {
                    slow.connection.fill(max: 1)
                    Thread.sleep(forTimeInterval: 0.1)
                }
                let withSlow = (0..<3).map { counts[10 + $0] }
                let published = harness.publishedCount - startSlow
                let clients = try harness.streamClients()
                phase.add(0)
                group.wait()
                return (alone, withSlow, startSlow - base, published, clients)
            }
            #expect(publishedAlone >= 30 && published >= 30, "the fake engine published \(publishedAlone) and \(published) frames")
            for i in 0..<3 {
                let rateAlone = Double(alone[i]) / Double(max(publishedAlone, 1))
                let rateWithSlow = Double(withSlow[i]) / Double(max(published, 1))
                #expect(alone[i] >= 10, "fast client \(i) got only \(alone[i]) of \(publishedAlone) frames on its own")
                #expect(rateWithSlow >= 0.7 * rateAlone,
                        "fast client \(i): \(alone[i])/\(publishedAlone) frames alone, \(withSlow[i])/\(published) next to the slow reader")
            }
            #expect(clients.count == 4, "\(clients)")
            let slowest = try #require(clients.max { $0.id < $1.id })
            #expect(slowest.sent < max(published / 3, 2), "the slow client was sent \(slowest.sent) of \(published) frames: it must skip, not queue")
            // The capture side never waits for a client (a blocked publish would take seconds).
            #expect(harness.slowestPublishSeconds < 0.05, "publish took up to \(harness.slowestPublishSeconds) s")
        }
    }

    @Test func clientsHangingUpMidPartDoNotDisturbTheOthers() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            let (received, settled, remaining) = try await blocking { () throws -> (Int, Bool, [StreamClientCount]) in
                let steady = try MJPEGReader(port: port)
                let received = Counter()
                let start = Date()
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    while Date().timeIntervalSince(start) < 2.5, steady.nextPart() != nil { received.add(0) }
                    done.signal()
                }
                for round in 0..<21 {
                    switch round % 3 {
                    case 0: // request sent, nothing read, gone
                        let c = try LoopbackConnection(port: port)
                        try c.send("GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
                    case 1: // hang up in the middle of a JPEG
                        let r = try MJPEGReader(port: port)
                        _ = r.connection.read(through: Array("\r\n\r\n".utf8))
                        _ = r.connection.read(exactly: 500)
                    default: // half a request line
                        let c = try LoopbackConnection(port: port)
                        try c.send("GET /stream.mj")
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                done.wait()
                // Every abandoned stream gives its slot back (within a few frames).
                let settled = try PreviewHarness.eventually(3) { try harness.streamClients().count == 1 }
                return (received[0], settled, try harness.streamClients())
            }
            #expect(received >= Int(2.5 * 30 * 0.5), "the steady client got \(received) frames in 2.5 s")
            #expect(harness.slowestPublishSeconds < 0.05, "publish took up to \(harness.slowestPublishSeconds) s")
            #expect(settled, "clients still registered: \(remaining)")
        }
    }

    @Test func clientsBeyondTheLimitGet503AndSlotsComeBack() async throws {
        try await PreviewHarness.with(maxClients: 2) { harness in
            let port = harness.port
            let (statuses, refused, statusPage, freed, thirdStatus, thirdPart) = try await blocking {
                var first: MJPEGReader? = try MJPEGReader(port: port)
                let second = try MJPEGReader(port: port)
                let statuses = [first?.status ?? 0, second.status]
                let refused = try LoopbackHTTP.get(port, "/stream.mjpg")
                let statusPage = try LoopbackHTTP.get(port, "/status").status
                first = nil
                let freed = try PreviewHarness.eventually(3) { try harness.streamClients().count == 1 }
                let third = try MJPEGReader(port: port)
                return (statuses, refused, statusPage, freed, third.status, third.nextPart() != nil)
            }
            #expect(statuses == [200, 200])
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] != nil)
            #expect((refused.json?["error"] as? String)?.contains("limit 2") == true, "\(refused.text)")
            #expect(statusPage == 200, "pages still answer while the stream is full")
            #expect(freed)
            #expect(thirdStatus == 200 && thirdPart)
        }
    }

    @Test func aStalledClientIsDisconnectedAfterTheStallTimeout() async throws {
        try await PreviewHarness.with(fps: 25, width: 1280, height: 720, stallTimeout: 1) { harness in
            let port = harness.port
            let (status, connected, dropped) = try await blocking {
                let stalled = try MJPEGReader(port: port, receiveBuffer: 4096)
                let connected = try harness.streamClients().count
                let dropped = try PreviewHarness.eventually(6) { try harness.streamClients().isEmpty }
                withExtendedLifetime(stalled) {}
                return (stalled.status, connected, dropped)
            }
            #expect(status == 200)
            #expect(connected == 1)
            #expect(dropped, "a client that reads nothing must lose its slot after the stall timeout")
        }
    }
}

/// Per-client counters shared with reader threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Int] = [:]
    func add(_ key: Int) { lock.lock(); values[key, default: 0] += 1; lock.unlock() }
    subscript(key: Int) -> Int { lock.lock(); defer { lock.unlock() }; return values[key, default: 0] }
}
