import Dispatch
import Foundation
import Imaging
import JPEGCodec
import PreviewServer
import Synchronization

/// A catalogue of three frames whose thumbnails are flat colours; records what was selected.
final class FakeControl: PreviewControl {
    let frames: [PreviewFrame] = [
        PreviewFrame(id: "round-47", name: "Round 47", size: "47□21-145",
                     variants: [.init(id: "gold", name: "Gold", color: "#d4af5f"), .init(id: "black", name: "Black", color: "#202020")]),
        PreviewFrame(id: "square-52", name: "Square 52", size: "52□18-145"),
        PreviewFrame(id: "aviator-58", name: "Aviator 58", size: "58□14-140", variants: [.init(id: "silver", name: "Silver", color: "#d8d8d8")]),
    ]
    private let chosen = Mutex<[String]>([])

    var selections: [String] { chosen.withLock { $0 } }

    func thumbnail(_ spec: String) throws -> [UInt8] {
        let shade = UInt8(truncatingIfNeeded: spec.utf8.reduce(0) { $0 &+ Int($1) } * 37)
        var image = RGBImage(width: 160, height: 80)
        for y in 0..<80 { for x in 0..<160 { image[x, y] = (255, 255, 255) } }
        for y in 30..<50 { for x in 20..<140 { image[x, y] = (shade, 40, 255 &- shade) } }
        return try TurboJPEGEncoder().encode(image, quality: 85)
    }

    func select(_ spec: String) throws { chosen.withLock { $0.append(spec) } }
}

/// Frames to publish: noisy images (so JPEGs have realistic sizes) with a bright square that moves.
enum TestFrames {
    static func jpegs(count: Int, width: Int, height: Int) throws -> [[UInt8]] {
        var state: UInt32 = 0x9E3779B9
        return try (0..<count).map { index in
            var image = RGBImage(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = UInt8(truncatingIfNeeded: state >> 24)
                    image[x, y] = (noise / 2 &+ UInt8(x * 100 / width), noise / 2, UInt8(y * 100 / height) &+ noise / 4)
                }
            }
            let side = height / 4, x0 = (index * width / max(count, 1)) % (width - side)
            for y in side..<(2 * side) { for x in x0..<(x0 + side) { image[x, y] = (250, 250, 250) } }
            return try TurboJPEGEncoder().encode(image, quality: 85)
        }
    }
}

/// Runs blocking socket code on a thread of its own: the server's handlers run on Swift's
/// cooperative pool (two threads on a 2-core machine), which a test blocking in recv() would starve.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A running server fed by a publisher thread at `fps` until `stop()`.
final class PreviewHarness: @unchecked Sendable {
    let server: PreviewServer
    let control = FakeControl()
    private(set) var port = 0
    private let publishing = Atomic<Bool>(true)
    private let published = Atomic<Int>(0)
    private let slowestPublish = Atomic<UInt64>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let fps: Double, width: Int, height: Int

    private init(maxClients: Int, fps: Double, width: Int, height: Int, stallTimeout: Double) {
        var configuration = PreviewConfiguration(host: "127.0.0.1", port: 0, maxStreamClients: maxClients)
        configuration.stallTimeoutSeconds = stallTimeout
        server = PreviewServer(configuration: configuration, control: control)
        self.fps = fps
        self.width = width
        self.height = height
    }

    /// Starts a server and its publisher, runs `body`, stops both (also when `body` throws).
    static func with<T>(maxClients: Int = 8, fps: Double = 30, width: Int = 320, height: Int = 240, stallTimeout: Double = 10,
                        _ body: (PreviewHarness) async throws -> T) async throws -> T {
        let harness = PreviewHarness(maxClients: maxClients, fps: fps, width: width, height: height, stallTimeout: stallTimeout)
        harness.port = try await harness.server.start()
        try harness.startPublishing()
        do {
            let result = try await body(harness)
            await harness.stop()
            return result
        } catch {
            await harness.stop()
            throw error
        }
    }

    private func startPublishing() throws {
        let frames = try TestFrames.jpegs(count: 4, width: width, height: height)
        Thread { [self] in
            var index = 0
            while publishing.load(ordering: .relaxed) {
                let state = EngineState(frameIndex: index, time: Double(index) / fps, width: width, height: height, fps: fps,
                                        latencyMs: 12.5, stagesMs: [.init(name: "decode", ms: 2)], glasses: "round-47",
                                        selectedGlasses: control.selections.last ?? "round-47",
                                        tracking: .init(faces: [.init(id: 1, state: "tracking", pitch: 1, yaw: 2, roll: 3, distanceMM: 600)]),
                                        metrics: .init(pdMM: 63.2, pdUncertaintyMM: 0.8, nearPdMM: 60.1, templeWidthMM: 141, recommendedSize: "52□18-145",
                                                      sizeLabel: "M", framesUsed: 42),
                                        light: .init(ambientIntensity: 980, colorTemperatureK: 5200, towardsLight: [0, -0.6, -0.8], primaryIntensity: 1.2))
                let t0 = DispatchTime.now().uptimeNanoseconds
                server.publish(jpeg: frames[index % frames.count], state: state)
                let took = DispatchTime.now().uptimeNanoseconds - t0
                if took > slowestPublish.load(ordering: .relaxed) { slowestPublish.store(took, ordering: .relaxed) }
                published.add(1, ordering: .relaxed)
                index += 1
                Thread.sleep(forTimeInterval: 1 / fps)
            }
            finished.signal()
        }.start()
    }

    var publishedCount: Int { published.load(ordering: .relaxed) }

    /// The longest a `publish` call (the capture loop's side) took, in seconds.
    var slowestPublishSeconds: Double { Double(slowestPublish.load(ordering: .relaxed)) / 1e9 }

    private func stop() async {
        publishing.store(false, ordering: .relaxed)
        let finished = self.finished
        _ = try? await blocking { finished.wait() }
        await server.shutdown()
    }

    /// The `/status` stream clients as (id, framesSent, framesSkipped). Blocking: call inside `blocking`.
    func streamClients() throws -> [StreamClientCount] {
        let status = try LoopbackHTTP.get(port, "/status").json ?? [:]
        let stream = status["stream"] as? [String: Any] ?? [:]
        return (stream["clients"] as? [[String: Any]] ?? []).map {
            StreamClientCount(id: $0["id"] as? Int ?? -1, sent: $0["framesSent"] as? Int ?? -1, skipped: $0["framesSkipped"] as? Int ?? -1)
        }
    }

    /// Waits up to `seconds` for `condition`. Blocking: call inside `blocking`.
    static func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }
}

struct StreamClientCount: Sendable, CustomStringConvertible {
    var id: Int
    var sent: Int
    var skipped: Int
    var description: String { "#\(id) sent \(sent) skipped \(skipped)" }
}

/// Runs a command to completion with a time limit.
enum Tool {
    static func path(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Output { var status: Int32; var stdout: Data; var stderr: String }

    static func run(_ executable: String, _ arguments: [String], timeout: Double = 30) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes while it runs, so a chatty tool cannot block on a full pipe.
        let outData = DataBox(), errData = DataBox()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.data = pipe.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: outData.data,
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }
}

/// Written by one reader thread, read after `DispatchGroup.wait()`.
final class DataBox: @unchecked Sendable { var data = Data() }
