import Foundation
import Testing

/// `--input -` and `--output -`: MJPEG through standard input and output, so the engine chains with
/// ffmpeg and GStreamer. Each case runs a real shell pipeline with ffmpeg/ffprobe at its ends.
@Suite(.serialized, .enabled(if: CLI.available && CLIMedia.ffmpeg != nil && CLIMedia.ffprobe != nil,
                             "needs the lorgnette executable, ffmpeg and ffprobe"))
struct PipeTests {
    /// Runs `script` with `sh -c`, `$L` set to the lorgnette executable; (status, stdout, stderr).
    static func shell(_ script: String, timeout: TimeInterval = 120) throws -> CLI.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.environment = ProcessInfo.processInfo.environment.merging(["L": CLI.executable!]) { $1 }
        // Files, not pipes: nothing to drain while it runs.
        let dir = try CLIMedia.temporaryDirectory("shell")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: "\(dir)/out", contents: nil)
        FileManager.default.createFile(atPath: "\(dir)/err", contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(dir)/out"))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(dir)/err"))
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: try CLIMedia.read("\(dir)/out"), as: UTF8.self),
                          stderr: String(decoding: try CLIMedia.read("\(dir)/err"), as: UTF8.self))
    }

    /// 12 frames of a moving test pattern as raw MJPEG on ffmpeg's standard output.
    static let source = "ffmpeg -nostdin -v error -f lavfi -i testsrc=size=320x240:rate=15 -frames:v 12 -f mjpeg -"
    static let count = "ffprobe -v error -f mjpeg -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 -i -"

    @Test func liveReadsStandardInputAndWritesStandardOutput() throws {
        let r = try Self.shell("\(Self.source) | \"$L\" live --input - --output - | \(Self.count)")
        #expect(r.status == 0, "\(r.stderr)")
        // ffprobe read every frame from our stdout, and nothing but frames was written there.
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "12", "\(r.stdout) \(r.stderr)")
        // The summary went to standard error.
        #expect(r.stderr.contains("live: 12 frames"), "\(r.stderr)")
        #expect(r.stderr.contains("-> standard output"), "\(r.stderr)")
    }

    @Test func gstreamerStyleConsumerSeesWholeJPEGs() throws {
        let dir = try CLIMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Self.shell("\"$L\" live --input demo:320x240 --frames 5 --output - > \(dir)/out.mjpeg")
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = try CLIMedia.read("\(dir)/out.mjpeg")
        #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9])
        #expect(try CLIMedia.probe("\(dir)/out.mjpeg")?.packets == 5)
    }

    @Test func aReaderThatClosesEndsTheRunCleanly() throws {
        // `head` leaves after 20 kB: the next write gets EPIPE (SIGPIPE is ignored), live stops, reports
        // on stderr and exits 0. (sh has no PIPESTATUS: live's status goes to a file.)
        let dir = try CLIMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Self.shell("(\"$L\" live --input demo --frames 500 --output - 2>\(dir)/err; echo $? > \(dir)/status) | head -c 20000 > /dev/null",
                               timeout: 300)
        #expect(r.status == 0)
        let status = String(decoding: try CLIMedia.read("\(dir)/status"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let err = String(decoding: try CLIMedia.read("\(dir)/err"), as: UTF8.self)
        #expect(status == "0", "live exited \(status): \(err)")
        #expect(err.contains("the reader closed the pipe"), "\(err)")
        #expect(!err.contains("Fatal error") && !err.contains("Broken pipe"), "\(err)")
    }

    @Test func convertCopiesAPipeToAPipe() throws {
        let r = try Self.shell("\(Self.source) | \"$L\" convert - - | \(Self.count)")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "12", "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("converted 12 frames"), "\(r.stderr)")
    }

    @Test func junkOnStandardInputIsAOneLineError() throws {
        let r = try Self.shell("printf 'not a video' | \"$L\" live --input - --output - > /dev/null")
        #expect(r.status != 0)
        // Information lines (the glasses, their lenses, the input's notes) aside, one error line.
        let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("live: round") && !$0.hasPrefix("live: lens") && !$0.hasPrefix("note:") && !$0.hasPrefix("warning:") }
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("no frames"), "\(r.stderr)")
    }

    @Test func trackReadsStandardInputToo() throws {
        let r = try Self.shell("\(Self.source) | \"$L\" track --input - --json - | wc -l")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == 12, "\(r.stdout) \(r.stderr)")
    }
}
