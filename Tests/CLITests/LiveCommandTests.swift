import Foundation
import Imaging
import JPEGCodec
import Media
import Testing

/// `lorgnette live` end to end through the built binary: the embedded demo portrait (no camera, no
/// shared data needed) and, when present, a shared dev clip.
@Suite("lorgnette live", .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct LiveCommandTests {
    static let sharedClip: String = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/data/videos/liveportrait_d20.mjpeg").path
    }()
    static var hasSharedClip: Bool { FileManager.default.fileExists(atPath: sharedClip) }

    /// Every frame of an AVI, decoded to RGB.
    static func frames(_ path: String) throws -> [RGBImage] {
        let source = try AVIFileSource(path: path)
        defer { source.close() }
        var out: [RGBImage] = []
        let decoder = TurboJPEGDecoder()
        while let frame = try source.nextFrame() {
            guard case .jpeg(let bytes) = frame.payload else { continue }
            out.append(try decoder.decodeRGB(bytes, scale: .full))
        }
        return out
    }

    /// Mean absolute RGB difference over a box (clamped to the image).
    static func difference(_ a: RGBImage, _ b: RGBImage, x0: Int, y0: Int, x1: Int, y1: Int) -> Double {
        var sum = 0, count = 0
        for y in max(0, y0)..<min(a.height, y1) {
            for x in max(0, x0)..<min(a.width, x1) {
                let p = a[x, y], q = b[x, y]
                sum += abs(Int(p.0) - Int(q.0)) + abs(Int(p.1) - Int(q.1)) + abs(Int(p.2) - Int(q.2))
                count += 3
            }
        }
        return count > 0 ? Double(sum) / Double(count) : 0
    }

    /// Pupils of the first face per frame from `lorgnette track --json`.
    static func pupils(_ jsonPath: String) throws -> [[SIMD2<Double>]] {
        try String(contentsOfFile: jsonPath, encoding: .utf8).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let faces = object?["faces"] as? [[String: Any]] ?? []
            let p = faces.first?["pupils"] as? [[Double]] ?? []
            return p.map { SIMD2($0[0], $0[1]) }
        }
    }

    /// Runs `live` and `track` (same input, no glasses, no overlay) and checks the glasses change the
    /// pixels around the eyes and nothing far from the face.
    func checkGlassesDrawn(input: String, frameCount: Int, glasses: String) throws {
        let dir = try CLIMedia.temporaryDirectory()
        let live = try CLI.run(["live", "--input", input, "--frames", String(frameCount), "--frame", glasses, "-o", dir + "/live.avi"], timeout: 300)
        #expect(live.status == 0, "\(live.stderr)")
        let plain = try CLI.run(["track", "--input", input, "--frames", String(frameCount), "--overlay", "none",
                                 "--output", dir + "/plain.avi", "--json", dir + "/track.jsonl"], timeout: 300)
        #expect(plain.status == 0, "\(plain.stderr)")
        let withGlasses = try Self.frames(dir + "/live.avi"), without = try Self.frames(dir + "/plain.avi")
        #expect(withGlasses.count == frameCount && without.count == frameCount)
        if let probe = try CLIMedia.probe(dir + "/live.avi") { #expect(probe.packets == frameCount) }
        #expect(try CLIMedia.ffmpegDecodes(dir + "/live.avi"))
        let pupils = try Self.pupils(dir + "/track.jsonl")
        var checked = 0
        for k in 0..<min(withGlasses.count, without.count, pupils.count) where pupils[k].count == 2 {
            let a = withGlasses[k], b = without[k]
            #expect(a.width == b.width && a.height == b.height)
            let l = pupils[k][0], r = pupils[k][1]
            let ipd = ((r - l) * (r - l)).sum().squareRoot()
            #expect(ipd > 10)
            // Around the eyes: the frame's rims and lenses (at least a clear change on average).
            let eyes = Self.difference(a, b, x0: Int(l.x - 0.6 * ipd), y0: Int(min(l.y, r.y) - 0.35 * ipd),
                                       x1: Int(r.x + 0.6 * ipd), y1: Int(max(l.y, r.y) + 0.35 * ipd))
            // A band at the bottom of the image, far below the face: untouched.
            let far = Self.difference(a, b, x0: 0, y0: a.height - 24, x1: a.width, y1: a.height)
            #expect(eyes > 8, "frame \(k): glasses barely change the eye region (mean |diff| \(eyes))")
            #expect(far < 1, "frame \(k): pixels far from the face changed (mean |diff| \(far))")
            checked += 1
        }
        #expect(checked >= frameCount - 1, "a face on only \(checked) of \(frameCount) frames")
    }

    @Test("demo portrait, 10 frames, catalogue frame: valid AVI with glasses around the eyes")
    func demoCatalogueFrame() throws {
        try checkGlassesDrawn(input: "demo", frameCount: 10, glasses: "rectangular-52-18-140")
    }

    @Test("shared clip, 10 frames, frame variant: valid AVI with glasses around the eyes",
          .enabled(if: LiveCommandTests.hasSharedClip, "shared dev videos not found next to the repository"))
    func sharedClipVariant() throws {
        try checkGlassesDrawn(input: Self.sharedClip, frameCount: 10, glasses: "aviator-58-14-135:gold-green")
    }

    @Test("bad frame id: one-line error, non-zero exit, no output file")
    func badFrameID() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let result = try CLI.run(["live", "--input", "demo", "--frames", "3", "--frame", "no-such-frame", "-o", dir + "/x.avi"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].contains("no-such-frame"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.avi"))
    }

    @Test("missing model file: one-line error, non-zero exit")
    func missingModelFile() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let result = try CLI.run(["live", "--input", "demo", "--frames", "3", "--frame", dir + "/missing.glb", "-o", dir + "/x.avi"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].contains("missing.glb"), "\(result.stderr)")
    }

    @Test("corrupt glasses model: one-line error, non-zero exit")
    func corruptModel() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write(Array("glTF but not really".utf8) + [UInt8](repeating: 7, count: 64), to: dir + "/bad.glb")
        let result = try CLI.run(["live", "--input", "demo", "--frames", "3", "--frame", dir + "/bad.glb", "-o", dir + "/x.avi"])
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").filter { !$0.isEmpty }.count == 1, "\(result.stderr)")
    }

    @Test("unreadable input: non-zero exit, no crash")
    func garbageInput() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write([UInt8](repeating: 0x42, count: 5000), to: dir + "/garbage.mjpeg")
        let result = try CLI.run(["live", "--input", dir + "/garbage.mjpeg", "--frames", "3", "-o", dir + "/x.avi"])
        #expect(!result.stderr.contains("Fatal error") && result.status != 132 && result.status != 134, "\(result.stderr)")
        #expect(result.stderr.contains("no JPEG frames found"), "\(result.stderr)")
        // Like `track`, `live` refuses an input it could read no frame from.
        #expect(result.status != 0)
        #expect(result.stderr.contains("no frames could be read"), "\(result.stderr)")
    }

    @Test("input corrupt after good frames: the frames already written stay a playable AVI")
    func corruptTail() throws {
        let dir = try CLIMedia.temporaryDirectory()
        // Four good demo frames, then bytes that are not JPEG and a truncated JPEG.
        let demo = try CLI.run(["convert", "demo", dir + "/demo.mjpeg", "--max-frames", "4"])
        try #require(demo.status == 0, "\(demo.stderr)")
        var bytes = try CLIMedia.read(dir + "/demo.mjpeg")
        let good = bytes
        bytes += [UInt8](repeating: 0x00, count: 3000) + Array(good.prefix(good.count / 8))
        try CLIMedia.write(bytes, to: dir + "/tail.mjpeg")
        let result = try CLI.run(["live", "--input", dir + "/tail.mjpeg", "--frame", "round-50-21-145", "-o", dir + "/x.avi"], timeout: 300)
        let frames = try Self.frames(dir + "/x.avi")
        #expect(frames.count >= 4, "exit \(result.status): \(result.stderr)")
        #expect(try CLIMedia.ffmpegDecodes(dir + "/x.avi"))
        if result.status != 0 {
            #expect(result.stderr.split(separator: "\n").filter { $0.contains("error") || $0.hasPrefix("live: ") && !$0.contains(" on ") }.count <= 2, "\(result.stderr)")
        }
    }
}
