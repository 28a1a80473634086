import Foundation
import Testing

@Suite("lorgnette info", .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct InfoCommandTests {
    @Test("text report: frames, size, fps, duration, codec, no issues for a clean AVI")
    func cleanAVI() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let frames = try (0..<15).map { try CLIMedia.frame($0) }
        try CLIMedia.write(frames.flatMap { $0 }, to: dir + "/in.mjpeg")
        #expect(try CLI.run(["convert", dir + "/in.mjpeg", dir + "/a.avi", "--fps", "25"]).status == 0)
        let result = try CLI.run(["info", dir + "/a.avi"])
        #expect(result.status == 0, "\(result.stderr)")
        for needle in ["frames:    15", "size:      64x48", "fps:       25", "duration:  0.600 s", "codec:     MJPG",
                       "15 ok, 0 failed", "issues:    none"] {
            #expect(result.stdout.contains(needle), "missing '\(needle)' in\n\(result.stdout)")
        }
    }

    @Test("--json reports junk, a truncated frame, an undecodable frame and missing Huffman tables")
    func defectsInJSON() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let good = try (0..<4).map { try CLIMedia.frame($0) }
        // Frame 2: its scan cut short (the end marker follows a few entropy-coded bytes), structure intact.
        let sos = try #require(good[2].indices.dropLast().first { good[2][$0] == 0xFF && good[2][$0 + 1] == 0xDA })
        let damaged = Array(good[2][0..<(sos + 24)]) + [0xFF, 0xD9]
        // Frame 3: Huffman tables removed (as webcams send), still decodable.
        let noDHT = removeDHT(good[3])
        let bytes = Array("junk".utf8) + good[0] + good[1] + damaged + noDHT + Array(good[0].prefix(200))
        try CLIMedia.write(bytes, to: dir + "/defects.mjpeg")
        let result = try CLI.run(["info", "--json", dir + "/defects.mjpeg"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["frames"] as? Int == 4)
        #expect(object["framesWithoutHuffmanTables"] as? Int == 1)
        let issues = object["issues"] as? [String] ?? []
        #expect(issues.contains { $0.contains("junk") }, "\(issues)")
        #expect(issues.contains { $0.contains("truncated") }, "\(issues)")
        let failing = (object["framesFailingDecode"] as? Int ?? 0) + (object["framesWithDecodeWarnings"] as? Int ?? 0)
        #expect(failing >= 1, "the damaged frame went unnoticed: \(result.stdout)")
    }

    @Test("shared clip: sidecar timing is used",
          .enabled(if: FileManager.default.fileExists(atPath: Self.sharedVideos + "/videoretalking_face1.mjpeg"), "shared videos not present"))
    func sharedClip() throws {
        let result = try CLI.run(["info", "--no-decode", Self.sharedVideos + "/videoretalking_face1.mjpeg"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("frames:    135"))
        #expect(result.stdout.contains("22.131 (videos.json sidecar)"))
    }

    @Test("a missing file, a corrupt AVI and a folder without images fail with one line")
    func errors() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write(Array("RIFF\u{10}\0\0\0AVI LIST".utf8), to: dir + "/short.avi")
        for path in [dir + "/missing.avi", dir + "/short.avi", dir] {
            let result = try CLI.run(["info", path])
            #expect(result.status != 0)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    private static var sharedVideos: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/data/videos").path
    }

    /// The JPEG without its DHT segments.
    private func removeDHT(_ jpeg: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        var p = 2
        while p + 4 <= jpeg.count {
            let marker = jpeg[p + 1]
            let length = Int(jpeg[p + 2]) << 8 | Int(jpeg[p + 3])
            if marker == 0xDA { out += jpeg[p...]; return out }
            if marker != 0xC4 { out += jpeg[p..<(p + 2 + length)] }
            p += 2 + length
        }
        return out
    }
}
