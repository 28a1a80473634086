import Foundation

/// Deterministic pseudo-random bytes (xorshift64*), so failures reproduce.
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 32) }
    mutating func bytes(_ n: Int) -> [UInt8] { (0 ..< n).map { _ in byte() } }
}

enum Tools {
    /// Path of an executable on PATH, or nil.
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// ImageMagick 6's `convert` (Debian's imagemagick package).
    static let convert = find("convert")
    static let ffmpeg = find("ffmpeg")

    /// Runs a tool and returns (exit status, stdout bytes). Stderr is discarded.
    static func run(_ path: String, _ arguments: [String]) throws -> (Int32, [UInt8]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, [UInt8](data))
    }

    static func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }
}
