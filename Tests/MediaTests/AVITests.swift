import Foundation
import Media
import Testing

@Suite("AVI writing and reading")
struct AVITests {
    private func writeAVI(_ frames: [[UInt8]], fps: Double, segmentLimit: Int = AVIFileSink.defaultSegmentLimitBytes,
                          name: String = #function) throws -> String {
        let path = try TestMedia.temporaryDirectory(name) + "/out.avi"
        let sink = try AVIFileSink(path: path, framesPerSecond: fps, segmentLimitBytes: segmentLimit)
        for (i, f) in frames.enumerated() { try sink.write(jpeg: f, timestampSeconds: Double(i) / fps) }
        try sink.finish()
        #expect(sink.framesWritten == frames.count)
        return path
    }

    @Test("round trip: the reader returns the written frames byte for byte, with size and rate")
    func roundTrip() throws {
        let frames = try TestMedia.frames(12)
        let path = try writeAVI(frames, fps: 29.97)
        let source = try AVIFileSource(path: path)
        #expect(source.info.width == 64 && source.info.height == 48)
        #expect(source.info.frameCount == 12)
        #expect(source.declaredFrameRate == FrameRate(rate: 2997, scale: 100))
        #expect(source.indexSource == "indx")
        var got: [Frame] = []
        while let f = try source.nextFrame() { got.append(f) }
        #expect(got.count == 12)
        for (i, f) in got.enumerated() {
            guard case .jpeg(let b) = f.payload else { continue }
            #expect(b == frames[i])
            #expect(abs(f.timestampSeconds - Double(i) * 100 / 2997) < 1e-9)
        }
        #expect(source.issues.isEmpty, "\(source.issues)")
    }

    @Test("ffprobe reads frame count, size and exact rate; ffmpeg decodes every frame",
          .enabled(if: FFmpegTools.available, "ffprobe/ffmpeg not installed"),
          arguments: [(25.0, "25/1"), (29.97, "2997/100"), (30000.0 / 1001, "30000/1001"), (22.13, "2213/100")])
    func ffprobeAgrees(fps: Double, expectedRate: String) throws {
        let frames = try TestMedia.frames(20, width: 96, height: 64)
        let path = try writeAVI(frames, fps: fps, name: "ffprobe\(expectedRate)")
        let probe = try #require(try FFmpegTools.probe(path))
        #expect(probe.packets == 20)
        #expect(probe.width == 96 && probe.height == 64)
        #expect(probe.frameRate == expectedRate)
        #expect(try FFmpegTools.decodedFrames(path) == 20)
    }

    @Test("OpenDML: small segments become RIFF AVIX with ix00 indexes; ffprobe and the reader see all frames")
    func openDMLSegments() throws {
        let frames = try TestMedia.frames(150)
        let path = try writeAVI(frames, fps: 30, segmentLimit: 64 << 10)
        let bytes = try TestMedia.read(path)
        let avix = bytes.indices.dropLast(4).filter { bytes[$0] == 0x41 && bytes[$0 + 1] == 0x56 && bytes[$0 + 2] == 0x49 && bytes[$0 + 3] == 0x58 }
        #expect(avix.count >= 2, "expected several AVIX segments, found \(avix.count)")
        let source = try AVIFileSource(path: path)
        #expect(source.isOpenDML)
        #expect(source.indexSource == "indx")
        #expect(try TestMedia.drain(source) == frames)
        #expect(source.issues.isEmpty, "\(source.issues)")
        if FFmpegTools.available {
            #expect(try FFmpegTools.probe(path)?.packets == 150)
            #expect(try FFmpegTools.decodedFrames(path) == 150)
        }
    }

    @Test("a recording killed before finish() (no idx1, no final index) plays up to the last frame written",
          arguments: [AVIFileSink.defaultSegmentLimitBytes, 64 << 10])
    func killedWriterStillPlays(segmentLimit: Int) throws {
        let frames = try TestMedia.frames(90)
        let dir = try TestMedia.temporaryDirectory("killed\(segmentLimit)")
        let path = dir + "/live.avi"
        let snapshot = dir + "/snapshot.avi"
        let sink = try AVIFileSink(path: path, framesPerSecond: 30, segmentLimitBytes: segmentLimit)
        for (i, f) in frames.enumerated() {
            try sink.write(jpeg: f, timestampSeconds: Double(i) / 30)
            // What a killed process leaves behind: the file as the kernel has it right now.
            if i == 76 { try FileManager.default.copyItem(atPath: path, toPath: snapshot) }
        }
        try sink.finish()
        let source = try AVIFileSource(path: snapshot)
        #expect(try TestMedia.drain(source) == Array(frames[0...76]))
        #expect(source.indexSource == "scan")
        if FFmpegTools.available {
            #expect(try FFmpegTools.probe(snapshot)?.packets == 77)
            #expect(try FFmpegTools.decodedFrames(snapshot) == 77)
        }
    }

    @Test("a truncated file delivers its complete frames and reports the damage")
    func truncatedFile() throws {
        let frames = try TestMedia.frames(10)
        let path = try writeAVI(frames, fps: 30)
        let bytes = try TestMedia.read(path)
        // Cut in the middle of frame 6's data.
        let frame6 = try #require(Self.offset(of: frames[6], in: bytes))
        try TestMedia.write(Array(bytes[0..<(frame6 + frames[6].count / 2)]), to: path)
        let source = try AVIFileSource(path: path)
        #expect(try TestMedia.drain(source) == Array(frames[0..<6]))
        #expect(source.issues.contains { $0.contains("truncated") }, "\(source.issues)")
        if FFmpegTools.available {
            #expect((try FFmpegTools.probe(path)?.packets ?? 0) >= 6)
        }
    }

    @Test("unset RIFF and movi sizes (zero or 0xFFFFFFFF placeholders of an unfinished recording) are read to the end of the file",
          arguments: [UInt32(0), UInt32.max])
    func placeholderSizes(placeholder: UInt32) throws {
        let dir = try TestMedia.temporaryDirectory("placeholder\(placeholder)")
        let frames = try TestMedia.frames(8)
        let path = dir + "/live.avi"
        let snapshot = dir + "/snapshot.avi"
        let sink = try AVIFileSink(path: path, framesPerSecond: 30)
        for f in frames { try sink.write(jpeg: f, timestampSeconds: 0) }
        try FileManager.default.copyItem(atPath: path, toPath: snapshot)
        try sink.finish()
        var bytes = try TestMedia.read(snapshot)
        let movi = try #require(Self.offset(of: Array("LIST".utf8) + [0, 0, 0, 0] + Array("movi".utf8), in: bytes, mask: [4, 5, 6, 7]))
        bytes.setPlaceholder(placeholder, at: 4)
        bytes.setPlaceholder(placeholder, at: movi + 4)
        try TestMedia.write(bytes, to: snapshot)
        let source = try AVIFileSource(path: snapshot)
        #expect(try TestMedia.drain(source) == frames)
        #expect(!source.issues.isEmpty)
    }

    @Test("followTimestamps fills skipped slots with empty repeat chunks so frames keep their times")
    func followTimestamps() throws {
        let frames = try TestMedia.frames(5)
        let slots = [0, 1, 3, 4, 10]
        let path = try TestMedia.temporaryDirectory() + "/vfr.avi"
        let sink = try AVIFileSink(path: path, framesPerSecond: 30, timing: .followTimestamps)
        for (f, slot) in zip(frames, slots) { try sink.write(jpeg: f, timestampSeconds: 100 + Double(slot) / 30 + 0.004) }
        // Early for its slot (slot 10 is taken): goes in slot 11.
        try sink.write(jpeg: frames[0], timestampSeconds: 100 + 10.2 / 30)
        try sink.finish()
        #expect(sink.framesWritten == 6 && sink.streamLength == 12)
        let source = try AVIFileSource(path: path)
        #expect(source.info.frameCount == 6)
        var times: [Double] = []
        while let f = try source.nextFrame() { times.append(f.timestampSeconds) }
        let expected = (slots + [11]).map { Double($0) / 30 }
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-9 } && times.count == 6, "\(times)")
        #expect(source.issues.isEmpty, "\(source.issues)")
        if let ffprobe = FFmpegTools.ffprobe {
            let out = try FFmpegTools.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,size",
                                                   "-of", "csv=p=0", path]).output
            let nonEmpty = out.split(separator: "\n").compactMap { line -> Int? in
                let parts = line.split(separator: ",")
                guard parts.count == 2, let pts = Int(parts[0]), let size = Int(parts[1]), size > 0 else { return nil }
                return pts
            }
            #expect(nonEmpty == slots + [11], "\(out)")
        }
    }

    @Test("an AVI written by ffmpeg is read frame for frame",
          .enabled(if: FFmpegTools.available, "ffmpeg not installed"))
    func readsFFmpegAVI() throws {
        let dir = try TestMedia.temporaryDirectory()
        let frames = try TestMedia.frames(15)
        try TestMedia.write(frames.flatMap { $0 }, to: dir + "/in.mjpeg")
        let ffmpeg = try #require(FFmpegTools.ffmpeg)
        let result = try FFmpegTools.run(ffmpeg, ["-v", "error", "-y", "-f", "mjpeg", "-framerate", "25", "-i", dir + "/in.mjpeg",
                                                 "-c", "copy", dir + "/ff.avi"])
        #expect(result.status == 0)
        let source = try AVIFileSource(path: dir + "/ff.avi")
        #expect(source.info.frameCount == 15)
        #expect(source.info.width == 64 && source.info.height == 48)
        #expect(source.issues.isEmpty, "\(source.issues)")
        // ffmpeg may store 25 fps as 50 fps with an empty "repeat" chunk after each frame; times must agree either way.
        var got: [[UInt8]] = []
        while let f = try source.nextFrame() {
            #expect(abs(f.timestampSeconds - Double(got.count) / 25) < 1e-9)
            if case .jpeg(let b) = f.payload { got.append(b) }
        }
        #expect(got.count == 15)
        // ffmpeg may add an AVI1 APP0 segment; the scan data must be the same.
        for (a, b) in zip(got, frames) { #expect(a.suffix(b.count / 2) == b.suffix(b.count / 2)) }
    }

    @Test("not an AVI, an empty file and a non-MJPEG AVI throw one-line errors")
    func rejectsBadFiles() throws {
        let dir = try TestMedia.temporaryDirectory()
        try TestMedia.write(Array("this is not a video file at all".utf8), to: dir + "/text.avi")
        try TestMedia.write([], to: dir + "/empty.avi")
        #expect(throws: MediaError.self) { try AVIFileSource(path: dir + "/text.avi") }
        #expect(throws: MediaError.self) { try AVIFileSource(path: dir + "/empty.avi") }
        #expect(throws: MediaError.self) { try AVIFileSource(path: dir + "/missing.avi") }
        if let ffmpeg = FFmpegTools.ffmpeg {
            _ = try FFmpegTools.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-frames:v", "3",
                                            "-c:v", "mpeg4", dir + "/mpeg4.avi"])
            do {
                _ = try AVIFileSource(path: dir + "/mpeg4.avi")
                Issue.record("an MPEG-4 AVI was accepted")
            } catch let error as MediaError {
                guard case .unsupported = error else { Issue.record("wrong error \(error)"); return }
                #expect(error.description.contains("not MJPEG"))
            }
        }
    }

    @Test("frames of a different size than the first are refused")
    func sizeChangeRefused() throws {
        let path = try TestMedia.temporaryDirectory() + "/x.avi"
        let sink = try AVIFileSink(path: path, framesPerSecond: 30)
        try sink.write(jpeg: try TestMedia.frame(0), timestampSeconds: 0)
        #expect(throws: MediaError.self) { try sink.write(jpeg: try TestMedia.frame(1, width: 32, height: 32), timestampSeconds: 0.1) }
        #expect(throws: MediaError.self) { try sink.write(jpeg: [1, 2, 3], timestampSeconds: 0.1) }
        try sink.finish()
        #expect(try TestMedia.drain(try AVIFileSource(path: path)).count == 1)
    }

    /// Where `needle` first occurs in `haystack`, ignoring the bytes of `needle` at `mask`.
    static func offset(of needle: [UInt8], in haystack: [UInt8], mask: Set<Int>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if needle.indices.allSatisfy({ mask.contains($0) || haystack[i + $0] == needle[$0] }) { return i }
        }
        return nil
    }

    /// Where `needle` starts in `haystack` (matched on its last 64 bytes, which differ between test frames).
    static func offset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count >= 64 else { return nil }
        let tail = Array(needle.suffix(64))
        var i = needle.count - 64
        while i + 64 <= haystack.count {
            if haystack[i] == tail[0], Array(haystack[i..<i + 64]) == tail { return i - (needle.count - 64) }
            i += 1
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    mutating func setPlaceholder(_ v: UInt32, at i: Int) {
        for k in 0..<4 { self[i + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }
}
