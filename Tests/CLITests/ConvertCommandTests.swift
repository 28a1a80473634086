import Foundation
import Media
import Testing

@Suite("lorgnette convert", .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct ConvertCommandTests {
    private func makeMJPEG(_ count: Int, in dir: String, name: String = "in.mjpeg") throws -> (path: String, frames: [[UInt8]]) {
        let frames = try (0..<count).map { try CLIMedia.frame($0) }
        let path = dir + "/" + name
        try CLIMedia.write(frames.flatMap { $0 }, to: path)
        return (path, frames)
    }

    @Test("MJPEG -> AVI -> folder -> MJPEG copies every frame unchanged")
    func conversionChain() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let (input, frames) = try makeMJPEG(24, in: dir)
        let toAVI = try CLI.run(["convert", input, dir + "/a.avi", "--fps", "24"])
        #expect(toAVI.status == 0, "\(toAVI.stderr)")
        #expect(CLIMedia.convertedCount(toAVI.stdout) == 24, "\(toAVI.stdout)")
        if let probe = try CLIMedia.probe(dir + "/a.avi") {
            #expect(probe.packets == 24 && probe.rate == "24/1")
            #expect(try CLIMedia.ffmpegDecodes(dir + "/a.avi"))
        }
        let toFolder = try CLI.run(["convert", dir + "/a.avi", dir + "/frames"])
        #expect(toFolder.status == 0, "\(toFolder.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/frames/frame_000023.jpg"))
        let back = try CLI.run(["convert", dir + "/frames", dir + "/b.mjpeg"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try CLIMedia.read(dir + "/b.mjpeg") == frames.flatMap { $0 })
    }

    @Test("--fps sets a non-integer AVI rate, --max-frames stops early")
    func fpsAndMaxFrames() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let (input, _) = try makeMJPEG(30, in: dir)
        let result = try CLI.run(["convert", input, dir + "/out.avi", "--fps", "29.97", "--max-frames", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(CLIMedia.convertedCount(result.stdout) == 10)
        #expect(result.stdout.contains("29.97 fps"))
        let source = try AVIFileSource(path: dir + "/out.avi")
        #expect(source.info.frameCount == 10)
        #expect(source.declaredFrameRate == FrameRate(rate: 2997, scale: 100))
        if let probe = try CLIMedia.probe(dir + "/out.avi") {
            #expect(probe.packets == 10 && probe.rate == "2997/100")
        }
    }

    @Test("--quality re-encodes: frames change but stay decodable and counted")
    func reencode() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let (input, frames) = try makeMJPEG(6, in: dir)
        let result = try CLI.run(["convert", input, dir + "/q.mjpeg", "--quality", "40"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("re-encoded at quality 40"))
        let out = try MJPEGStreamSource(path: dir + "/q.mjpeg")
        var got: [[UInt8]] = []
        while let f = try out.nextFrame() { if case .jpeg(let b) = f.payload { got.append(b) } }
        #expect(got.count == 6)
        #expect(got != frames)
        #expect(try CLIMedia.ffmpegDecodes(dir + "/q.mjpeg"))
    }

    @Test("bad input gives one line on stderr and a non-zero exit",
          arguments: ["missing", "unknownInput", "corruptAVI", "unknownOutput", "emptyMJPEG", "badQuality"])
    func errors(kind: String) throws {
        let dir = try CLIMedia.temporaryDirectory("errors\(kind)")
        let (good, _) = try makeMJPEG(2, in: dir)
        try CLIMedia.write(Array("definitely not RIFF".utf8), to: dir + "/bad.avi")
        try CLIMedia.write(Array("x".utf8), to: dir + "/movie.mp4")
        try CLIMedia.write([], to: dir + "/empty.mjpeg")
        let args: [String], expected: String
        switch kind {
        case "missing": (args, expected) = (["convert", dir + "/nope.mjpeg", dir + "/o.avi"], "cannot open")
        case "unknownInput": (args, expected) = (["convert", dir + "/movie.mp4", dir + "/o.avi"], "unknown input format")
        case "corruptAVI": (args, expected) = (["convert", dir + "/bad.avi", dir + "/o.mjpeg"], "not a RIFF AVI")
        case "unknownOutput": (args, expected) = (["convert", good, dir + "/o.mp4"], "unknown output format")
        case "emptyMJPEG": (args, expected) = (["convert", dir + "/empty.mjpeg", dir + "/o.avi"], "no frames")
        default: (args, expected) = (["convert", good, dir + "/o.avi", "--quality", "0"], "quality")
        }
        let result = try CLI.run(args)
        #expect(result.status != 0)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        let errorLines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") && !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") }
        #expect(errorLines.count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test("Ctrl-C mid-conversion finishes a playable AVI holding exactly the frames reported")
    func interruptFinishesOutput() throws {
        let dir = try CLIMedia.temporaryDirectory()
        // 600 identical 1280x720 frames, re-encoded by the command so it runs for several seconds.
        let frame = try CLIMedia.frame(0, width: 1280, height: 720, quality: 90)
        FileManager.default.createFile(atPath: dir + "/long.mjpeg", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/long.mjpeg"))
        let frameData = Data(frame)
        for _ in 0..<600 { handle.write(frameData) }
        try handle.close()
        let output = dir + "/long.avi"
        let running = try CLI.start(["convert", dir + "/long.mjpeg", output, "--quality", "90"])
        // Wait until some frames are on disk, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while running.process.isRunning, Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
            if size > 8 * frame.count { break }
            usleep(10_000)
        }
        let interruptedWhileRunning = running.process.isRunning
        running.process.interrupt()
        let result = try CLI.finish(running, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let count = try #require(CLIMedia.convertedCount(result.stdout), "\(result.stdout)")
        #expect(count > 0)
        if interruptedWhileRunning {
            #expect(count < 600)
            #expect(result.stdout.contains("interrupted"))
        }
        let source = try AVIFileSource(path: output)
        #expect(source.info.frameCount == count)
        #expect(source.indexSource != "scan", "finish() should have written the index")
        #expect(source.issues.isEmpty, "\(source.issues)")
        if let probe = try CLIMedia.probe(output) {
            #expect(probe.packets == count)
            #expect(try CLIMedia.ffmpegDecodes(output))
        }
    }

    @Test("a convert killed with SIGKILL leaves an AVI that ffprobe and the reader play up to the last frame")
    func killedConvertStillPlays() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let frame = try CLIMedia.frame(1, width: 1280, height: 720, quality: 90)
        FileManager.default.createFile(atPath: dir + "/long.mjpeg", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/long.mjpeg"))
        for _ in 0..<600 { handle.write(Data(frame)) }
        try handle.close()
        let output = dir + "/killed.avi"
        let running = try CLI.start(["convert", dir + "/long.mjpeg", output, "--quality", "90"])
        let deadline = Date().addingTimeInterval(60)
        while running.process.isRunning, Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
            if size > 8 * frame.count { break }
            usleep(10_000)
        }
        let killedWhileRunning = running.process.isRunning
        kill(running.process.processIdentifier, SIGKILL)
        _ = try CLI.finish(running, timeout: 30)
        let source = try AVIFileSource(path: output)
        var count = 0
        while try source.nextFrame() != nil { count += 1 }
        #expect(count > 0)
        if killedWhileRunning {
            #expect(count < 600)
            #expect(source.indexSource == "scan")
        }
        if let probe = try CLIMedia.probe(output) {
            // A kill in the middle of a frame's write leaves a partial chunk: ffprobe counts it as a
            // (corrupt) packet, the reader drops it.
            #expect(probe.packets == count || probe.packets == count + 1, "ffprobe \(probe.packets), reader \(count)")
        }
    }
}
