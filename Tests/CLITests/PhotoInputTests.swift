import Foundation
import Imaging
import JPEGCodec
import PNGCodec
import Testing

/// Every photo kind is read the same way by `landmarks`, `measure` and `live --input`: the demo portrait
/// as JPEG, PNG, PPM and as a JPEG stored sideways with an EXIF orientation tag.
@Suite(.serialized, .enabled(if: CLI.available, "lorgnette executable not built next to the tests"))
struct PhotoInputTests {
    static let portrait = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Models/demo/astronaut.jpg").path

    /// `jpeg` with an APP1 Exif segment whose IFD0 holds Orientation = `value` (big-endian TIFF).
    static func tagged(_ jpeg: [UInt8], orientation value: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0, 0, 0, 0, 0]
        let body = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(body.count + 2)] + body + jpeg.dropFirst(2)
    }

    static func photos(in dir: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: portrait)))
        let image = try TurboJPEGDecoder().decodeRGB(bytes)
        var files: [(String, [UInt8])] = [("a.jpg", bytes), ("b.png", try LibPNGEncoder.encode(image)), ("c.ppm", NetPBM.encode(image)),
                                          ("d-misnamed.jpg", try LibPNGEncoder.encode(image))]
        // Stored turned 90° counter-clockwise; orientation 6 tells a viewer to turn it clockwise.
        let stored = image.upright(.rotatedCounterclockwise)
        files.append(("e-exif.jpg", tagged(try TurboJPEGEncoder().encode(stored, quality: 95), orientation: 6)))
        for (name, data) in files { try Data(data).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        return files.map { dir + "/" + $0.0 }
    }

    @Test func landmarksReadEveryKindAlike() throws {
        let dir = try CLIMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = try Self.photos(in: dir)
        let r = try CLI.run(["landmarks", "--json"] + paths)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(lines.count == paths.count)
        let reference = try #require(lines[0]?["faces"] as? [[String: Any]]).first?["landmarks"] as? [[Double]]
        try #require(reference != nil, "no face in the JPEG")
        for (path, line) in zip(paths, lines) {
            #expect(line?["width"] as? Int == 512 && line?["height"] as? Int == 512, "\(path)")
            let points = (line?["faces"] as? [[String: Any]])?.first?["landmarks"] as? [[Double]]
            try #require(points != nil, "no face in \(path)")
            // Lossless copies give the same points; the re-encoded sideways JPEG within a pixel.
            let worst = zip(points!, reference!).map { max(abs($0[0] - $1[0]), abs($0[1] - $1[1])) }.max()!
            #expect(worst < (path.hasSuffix("e-exif.jpg") ? 1.5 : 0.05), "\(path): points differ by \(worst) px")
        }
        let bad = dir + "/notes.png"
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: bad))
        let mixed = try CLI.run(["landmarks", bad, paths[1]])
        #expect(mixed.status != 0)
        #expect(mixed.stderr.contains("notes.png: not an image this engine reads (accepted: JPEG, PNG, PGM/PPM)"), "\(mixed.stderr)")
        #expect(mixed.stdout.contains("b.png: 512x512, 1 face"), "the good file after a bad one still runs")
    }

    @Test func liveAndMeasureReadEveryKind() throws {
        let dir = try CLIMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for path in try Self.photos(in: dir) {
            let live = try CLI.run(["live", "--input", path, "--output", dir + "/out.avi"])
            #expect(live.status == 0 && live.stdout.contains("faces tracked on 100.0 %"), "\(path): \(live.stdout) \(live.stderr)")
            let measure = try CLI.run(["measure", "--input", path])
            // The portrait's face is too small to measure; what matters is that it was read and found.
            #expect(measure.stderr.contains("a face on 1"), "\(path): \(measure.stderr)")
        }
    }
}
