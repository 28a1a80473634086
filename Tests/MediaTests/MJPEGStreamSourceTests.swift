import Foundation
import Media
import Testing

@Suite("Raw MJPEG stream splitting")
struct MJPEGStreamSourceTests {
    private func open(_ bytes: [UInt8], fps: Double? = nil, name: String = #function) throws -> MJPEGStreamSource {
        let dir = try TestMedia.temporaryDirectory(name)
        let path = dir + "/stream.mjpeg"
        try TestMedia.write(bytes, to: path)
        return try MJPEGStreamSource(path: path, framesPerSecond: fps)
    }

    @Test("clean stream: every frame byte-exact, timestamps at the given rate")
    func cleanStream() throws {
        let frames = try TestMedia.frames(5)
        let source = try open(frames.flatMap { $0 }, fps: 25)
        #expect(source.info.width == 64 && source.info.height == 48)
        #expect(source.info.framesPerSecond == 25)
        var got: [Frame] = []
        while let f = try source.nextFrame() { got.append(f) }
        #expect(got.count == 5)
        for (i, f) in got.enumerated() {
            guard case .jpeg(let bytes) = f.payload else { Issue.record("not JPEG"); continue }
            #expect(bytes == frames[i])
            #expect(f.sequence == i)
            #expect(abs(f.timestampSeconds - Double(i) / 25) < 1e-12)
        }
        #expect(source.issues.isEmpty)
        #expect(try source.nextFrame() == nil)
    }

    @Test("default rate is 30 fps without a sidecar")
    func defaultRate() throws {
        let source = try open(try TestMedia.frame(0))
        #expect(source.info.framesPerSecond == 30)
    }

    @Test("junk before, between and after frames is skipped and reported")
    func junkBetweenFrames() throws {
        let frames = try TestMedia.frames(3)
        let junk1: [UInt8] = Array("garbage".utf8) + [0xFF, 0xD8, 0x00, 0xFF]   // FF D8 not followed by FF: not a start
        let junk2: [UInt8] = [0x00, 0xFF, 0xFF, 0xD9, 0x12]
        let bytes = junk1 + frames[0] + frames[1] + junk2 + frames[2] + [0x0A, 0x0A]
        let source = try open(bytes)
        let got = try TestMedia.drain(source)
        #expect(got == frames)
        let issues = source.issues
        #expect(issues.count == 3, "\(issues)")
        #expect(issues.contains { $0.contains("skipped 11 bytes of junk before frame 0") })
        #expect(issues.contains { $0.contains("skipped 5 bytes of junk before frame 2") })
        #expect(issues.contains { $0.contains("2 bytes of junk at the end") })
    }

    @Test("an APP1 segment holding FF D8 ... FF D9 (EXIF thumbnail) does not split the frame")
    func endMarkerInsideAPP1() throws {
        let base = try TestMedia.frame(1)
        let thumbnail = try TestMedia.frame(2, width: 16, height: 16)
        let payload = Array("Exif\0\0".utf8) + thumbnail
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let withExif = Array(base[0..<2]) + app1 + Array(base[2...])
        let other = try TestMedia.frame(3)
        let source = try open(withExif + other)
        let got = try TestMedia.drain(source)
        #expect(got.count == 2)
        #expect(got.first == withExif)
        #expect(got.last == other)
        #expect(source.issues.isEmpty, "\(source.issues)")
        #expect(source.info.width == 64)
    }

    @Test("stuffed FF 00 and restart markers inside entropy-coded data do not end the scan")
    func stuffingAndRestartMarkers() throws {
        let frame: [UInt8] = [0xFF, 0xD8,
                              0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00,
                              0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD1, 0xFF, 0xFF, 0xD9]
        let source = try open(frame + frame)
        let got = try TestMedia.drain(source)
        #expect(got == [frame, frame])
        #expect(source.issues.isEmpty, "\(source.issues)")
    }

    @Test("an FF, stuffed or a restart marker, that is the last byte of a read block is paired with the next block's first byte")
    func entropyCodedMarkerAcrossReadBlocks() throws {
        let frame: [UInt8] = [0xFF, 0xD8,
                              0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00,
                              0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD1, 0xFF, 0xFF, 0xD9]
        // The window reads 1 MiB blocks: junk before the frame puts each byte of its scan, in turn,
        // at the block's last offset (the scan's FFs are at 13, 16, 19, 21, 22; its EOI at 22-23).
        for k in 12..<frame.count {
            let junk = [UInt8](repeating: 0, count: (1 << 20) - 1 - k)
            let source = try open(junk + frame + frame, name: "entropyCodedMarkerAcrossReadBlocks-\(k)")
            let got = try TestMedia.drain(source)
            #expect(got == [frame, frame], "scan byte \(k) at the block's end")
            #expect(source.issues.count == 1 && source.issues.first?.contains("junk") == true, "\(source.issues)")
        }
    }

    @Test("a truncated last frame is reported, not delivered")
    func truncatedLastFrame() throws {
        let frames = try TestMedia.frames(3)
        let bytes = frames[0] + frames[1] + Array(frames[2].prefix(frames[2].count / 2))
        let source = try open(bytes)
        #expect(try TestMedia.drain(source) == Array(frames[0..<2]))
        #expect(source.issues.count == 1)
        #expect(source.issues.first?.contains("frame 2") == true && source.issues.first?.contains("truncated") == true)
    }

    @Test("a frame whose marker structure breaks is skipped; the next frame is found")
    func corruptFrameSkipped() throws {
        let frames = try TestMedia.frames(3)
        var broken = frames[1]
        let firstSegmentLength = Int(broken[4]) << 8 | Int(broken[5])
        broken[4 + firstSegmentLength] = 0x41  // where the marker after the first segment must be
        let source = try open(frames[0] + broken + frames[2])
        #expect(try TestMedia.drain(source) == [frames[0], frames[2]])
        #expect(source.issues.contains { $0.contains("corrupt") }, "\(source.issues)")
    }

    @Test("an empty file yields no frames and says so, without throwing")
    func emptyFile() throws {
        let source = try open([])
        #expect(try source.nextFrame() == nil)
        #expect(source.info.width == nil)
        #expect(source.issues == ["no JPEG frames found"])
    }

    @Test("a missing file throws a one-line cannotOpen error")
    func missingFile() throws {
        #expect(throws: MediaError.self) { try MJPEGStreamSource(path: "/nonexistent/x.mjpeg") }
    }

    @Test("frames crossing read-window boundaries (stream larger than 1 MiB) stay intact")
    func largerThanReadWindow() throws {
        let frames = try (0..<20).map { try TestMedia.frame($0, width: 640, height: 480, quality: 95) }
        var bytes: [UInt8] = []
        for (i, f) in frames.enumerated() {
            bytes += f
            if i % 7 == 3 { bytes += [UInt8](repeating: 0xFF, count: 1000) }
        }
        #expect(bytes.count > 1 << 20)
        let source = try open(bytes)
        #expect(try TestMedia.drain(source) == frames)
        #expect(source.issues.count == 3)
    }

    @Test("videos.json sidecar supplies fps and per-frame times")
    func sidecarTimes() throws {
        let dir = try TestMedia.temporaryDirectory()
        let frames = try TestMedia.frames(4)
        try TestMedia.write(frames.flatMap { $0 }, to: dir + "/clip.mjpeg")
        let json = #"[{"file": "other.mjpeg", "fps": 10}, {"file": "clip.mjpeg", "fps": 22.5, "frames": 4, "frame_times_s": [0.0, 0.04, 0.1, 0.13]}]"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/videos.json"))
        let source = try MJPEGStreamSource(path: dir + "/clip.mjpeg")
        #expect(source.info.framesPerSecond == 22.5)
        #expect(source.info.frameCount == 4)
        var times: [Double] = []
        while let f = try source.nextFrame() { times.append(f.timestampSeconds) }
        #expect(times == [0.0, 0.04, 0.1, 0.13])
        // An explicit rate overrides the sidecar.
        let fixed = try MJPEGStreamSource(path: dir + "/clip.mjpeg", framesPerSecond: 10)
        _ = try fixed.nextFrame()
        #expect(try fixed.nextFrame()?.timestampSeconds == 0.1)
    }

    @Test("shared face clips split into the documented frame counts",
          .enabled(if: TestMedia.sharedVideos != nil, "shared/data/videos not present"))
    func sharedClips() throws {
        let dir = try #require(TestMedia.sharedVideos)
        for (name, count, fps) in [("liveportrait_d3", 354, 30.0), ("liveportrait_d20", 175, 25.0),
                                   ("liveportrait_d18", 216, 30.0), ("videoretalking_face1", 135, 22.131)] {
            let source = try MJPEGStreamSource(path: "\(dir)/\(name).mjpeg")
            #expect(source.info.width == 640 && source.info.height == 640)
            #expect(source.info.framesPerSecond == fps)
            var n = 0
            var last = -1.0
            while let f = try source.nextFrame() {
                #expect(f.timestampSeconds > last)
                last = f.timestampSeconds
                n += 1
            }
            #expect(n == count, "\(name)")
            #expect(source.issues.isEmpty, "\(name): \(source.issues)")
        }
    }
}
