import Foundation
import Imaging
import JPEGCodec

/// Runs the built `lorgnette` executable as a subprocess.
enum CLI {
    /// The `lorgnette` built next to this test bundle (same build folder), or nil.
    static let executable: String? = {
        var candidates: [URL] = []
        if let arg0 = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: arg0).deletingLastPathComponent().appendingPathComponent("lorgnette"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("lorgnette"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("lorgnette"))
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var available: Bool { executable != nil }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `lorgnette arguments...` to completion (killing it after `timeout` seconds).
    static func run(_ arguments: [String], timeout: TimeInterval = 120, environment: [String: String] = [:]) throws -> Result {
        let process = try start(arguments, environment: environment)
        return try finish(process, timeout: timeout)
    }

    final class Running {
        let process: Process
        let out: Pipe
        let err: Pipe
        init(process: Process, out: Pipe, err: Pipe) { self.process = process; self.out = out; self.err = err }
    }

    /// `environment` is added to this process's environment (e.g. LORGNETTE_MODELS for a test's own catalogue).
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return Running(process: process, out: out, err: err)
    }

    static func finish(_ running: Running, timeout: TimeInterval = 120) throws -> Result {
        let deadline = Date().addingTimeInterval(timeout)
        while running.process.isRunning && Date() < deadline { usleep(20_000) }
        if running.process.isRunning {
            running.process.terminate()
            running.process.waitUntilExit()
        }
        let out = running.out.fileHandleForReading.readDataToEndOfFile()
        let err = running.err.fileHandleForReading.readDataToEndOfFile()
        return Result(status: running.process.terminationStatus,
                      stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}

enum CLIMedia {
    static func frame(_ index: Int, width: Int = 64, height: Int = 48, quality: Int = 85) throws -> [UInt8] {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = (UInt8((x * 3 + index * 7) & 0xFF), UInt8((y * 2 + index * 5) & 0xFF), UInt8((x ^ y) & 0xFF))
            }
        }
        return try TurboJPEGEncoder().encode(image, quality: quality)
    }

    static func temporaryDirectory(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "lorgnette-cli-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static let ffprobe: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let ffmpeg: String? = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// (packets read, r_frame_rate) of the first video stream, by ffprobe.
    static func probe(_ path: String) throws -> (packets: Int, rate: String)? {
        guard let ffprobe else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffprobe)
        p.arguments = ["-v", "error", "-count_packets", "-select_streams", "v:0",
                       "-show_entries", "stream=nb_read_packets,r_frame_rate", "-of", "default=noprint_wrappers=1", path]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
        }
        guard let n = Int(fields["nb_read_packets"] ?? "") else { return nil }
        return (n, fields["r_frame_rate"] ?? "")
    }

    /// Whether ffmpeg decodes the whole file without an error.
    static func ffmpegDecodes(_ path: String) throws -> Bool {
        guard let ffmpeg else { return true }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg)
        p.arguments = ["-v", "error", "-xerror", "-i", path, "-f", "null", "-"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    /// N from the summary line "converted N frames: ...".
    static func convertedCount(_ stdout: String) -> Int? {
        guard let range = stdout.range(of: "converted ") else { return nil }
        return Int(stdout[range.upperBound...].prefix { $0.isNumber })
    }
}
