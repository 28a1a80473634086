import Foundation
import Imaging
import JPEGCodec
import Media

/// Test media made on the fly: small JPEG frames whose content depends on their index.
enum TestMedia {
    static func frame(_ index: Int, width: Int = 64, height: Int = 48, quality: Int = 85) throws -> [UInt8] {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = (UInt8((x * 4 + index * 7) & 0xFF), UInt8((y * 5 + index * 3) & 0xFF), UInt8((index * 29) & 0xFF))
            }
        }
        return try TurboJPEGEncoder().encode(image, quality: quality)
    }

    static func frames(_ count: Int, width: Int = 64, height: Int = 48) throws -> [[UInt8]] {
        try (0..<count).map { try frame($0, width: width, height: height) }
    }

    /// A fresh empty folder under the system temporary directory.
    static func temporaryDirectory(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "lorgnette-media-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every frame of a source, as JPEG bytes.
    static func drain(_ source: FrameSource) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        while let frame = try source.nextFrame() {
            guard case .jpeg(let bytes) = frame.payload else { continue }
            out.append(bytes)
        }
        return out
    }

    /// `<repo>/../shared/data/videos`, when present.
    static var sharedVideos: String? {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = repo.deletingLastPathComponent().appendingPathComponent("shared/data/videos").path
        return FileManager.default.fileExists(atPath: dir) ? dir : nil
    }
}

/// ffprobe / ffmpeg, when installed, for checking files against an independent implementation.
enum FFmpegTools {
    static func find(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    static let ffprobe = find("ffprobe")
    static let ffmpeg = find("ffmpeg")
    static var available: Bool { ffprobe != nil && ffmpeg != nil }

    /// Runs a tool; returns exit status and standard output (standard error is discarded).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// What ffprobe reads from the first video stream: packets actually read, size and frame rate.
    struct Probe {
        var packets: Int
        var width: Int
        var height: Int
        var frameRate: String
    }

    static func probe(_ path: String) throws -> Probe? {
        guard let ffprobe else { return nil }
        let (status, out) = try run(ffprobe, [
            "-v", "error", "-count_packets", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_packets,width,height,r_frame_rate", "-of", "default=noprint_wrappers=1", path,
        ])
        guard status == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let packets = Int(fields["nb_read_packets"] ?? ""), let w = Int(fields["width"] ?? ""),
              let h = Int(fields["height"] ?? "") else { return nil }
        return Probe(packets: packets, width: w, height: h, frameRate: fields["r_frame_rate"] ?? "")
    }

    /// Frames ffmpeg decodes from `path` without error, or nil when ffmpeg fails.
    static func decodedFrames(_ path: String) throws -> Int? {
        guard let ffmpeg else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-xerror", "-i", path, "-f", "framemd5", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }.count
    }
}
