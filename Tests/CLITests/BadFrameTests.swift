import Foundation
import Testing

/// A frame that does not decode is skipped with a warning naming the file and the frame, and counted;
/// a run fails only after `--max-bad-frames` of them in a row (issue 25).
@Suite(.serialized, .enabled(if: CLI.available, "lorgnette executable not built next to the tests"))
struct BadFrameTests {
    /// A JPEG the stream splitter accepts (whole marker structure) but no decoder can read: its frame
    /// header declares 9-bit samples.
    static func undecodable(_ index: Int) throws -> [UInt8] {
        var jpeg = try CLIMedia.frame(index)
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 4] = 9
        return jpeg
    }

    /// An MJPEG file of `count` frames, those in `bad` undecodable.
    static func stream(count: Int, bad: Set<Int>) throws -> String {
        let dir = try CLIMedia.temporaryDirectory()
        var bytes: [UInt8] = []
        for i in 0..<count { bytes += bad.contains(i) ? try undecodable(i) : try CLIMedia.frame(i) }
        let path = "\(dir)/in.mjpeg"
        try CLIMedia.write(bytes, to: path)
        return path
    }

    @Test func liveSkipsABadFrameAndCountsIt() throws {
        let input = try Self.stream(count: 6, bad: [2])
        let output = (input as NSString).deletingLastPathComponent + "/out.avi"
        let r = try CLI.run(["live", "--input", input, "--fov", "60", "-o", output])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(input): frame 2 does not decode"), "\(r.stderr)")
        #expect(r.stdout.contains("live: 5 frames") && r.stdout.contains("1 undecodable frames skipped"), "\(r.stdout)")
        #expect(try CLIMedia.probe(output)?.packets == 5)
    }

    @Test func trackSkipsABadFrameAndCountsIt() throws {
        let input = try Self.stream(count: 6, bad: [0, 4])
        let json = (input as NSString).deletingLastPathComponent + "/out.jsonl"
        let r = try CLI.run(["track", "--input", input, "--fov", "60", "--json", json])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("frame 0 does not decode") && r.stderr.contains("frame 4 does not decode"), "\(r.stderr)")
        #expect(r.stderr.contains("2 undecodable frames skipped"), "\(r.stderr)")
        let lines = String(decoding: try CLIMedia.read(json), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4)
    }

    @Test func aRunOfBadFramesEndsTheRunButKeepsTheOutputPlayable() throws {
        let input = try Self.stream(count: 10, bad: Set(3..<10))
        let output = (input as NSString).deletingLastPathComponent + "/out.avi"
        let r = try CLI.run(["live", "--input", input, "--fov", "60", "--max-bad-frames", "4", "-o", output])
        #expect(r.status == 1)
        #expect(r.stderr.contains("4 frames in a row do not decode"), "\(r.stderr)")
        #expect(try CLIMedia.probe(output)?.packets == 3, "the frames before the bad run stay playable")
    }

    @Test func fieldOfViewScanSkipsBadFrames() throws {
        // --fov auto (the default for files) pre-scans the first frames: a bad one among them must not
        // stop the run before anything is written.
        let input = try Self.stream(count: 5, bad: [1])
        let output = (input as NSString).deletingLastPathComponent + "/out.avi"
        let r = try CLI.run(["live", "--input", input, "-o", output])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLIMedia.probe(output)?.packets == 4)
    }

    @Test func measureSkipsABadFrameAndCountsIt() throws {
        let input = try Self.stream(count: 5, bad: [1])
        let r = try CLI.run(["measure", "--input", input, "--fov", "60"])
        #expect(r.stderr.contains("\(input): frame 1 does not decode"), "\(r.stderr)")
        #expect(r.stderr.contains("1 undecodable frames skipped"), "\(r.stderr)")
        #expect(!r.stderr.contains("Fatal error"))
    }
}
