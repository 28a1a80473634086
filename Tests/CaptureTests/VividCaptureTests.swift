import Capture
import Foundation
import Imaging
import JPEGCodec
import Media
import Testing

/// Capture from the kernel's vivid virtual webcam (in the QEMU VM of .ci/capture-integration.sh).
/// Serialized: every test streams from the same device. Frame counts are small and no test
/// asserts exact rates (the emulated VM runs vivid at 8-25 fps depending on load).
@Suite(.serialized, .enabled(if: TestDevices.vivid != nil, TestDevices.skipReason))
struct VividCaptureTests {
    let path = TestDevices.vivid ?? "/dev/video0"

    @Test func enumeratesVivid() throws {
        let device = try CaptureDevices.describe(path)
        #expect(device.driver == "vivid")
        #expect(device.capabilities.contains("video-capture") && device.capabilities.contains("streaming"))
        let yuyv = try #require(device.formats.first { $0.fourcc == .yuyv })
        let small = try #require(yuyv.sizes.first { $0.width == 320 && $0.height == 180 })
        #expect(small.maxFramesPerSecond ?? 0 >= 30)
        #expect(!device.formats.contains { $0.emulated })  // native listing
    }

    @Test func capturesYUYVAsRGB() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30, format: .yuyv))
        defer { camera.close() }
        #expect(camera.format.fourcc == .yuyv && camera.format.width == 320 && camera.format.height == 180)
        #expect(camera.format.bytesPerLine >= 640)
        var last: Frame?
        for _ in 0..<8 {
            let frame = try #require(try camera.nextFrame())
            guard case .rgb(let image) = frame.payload else {
                Issue.record("YUYV should arrive as RGB")
                return
            }
            #expect(image.width == 320 && image.height == 180)
            if let last {
                #expect(frame.timestampSeconds > last.timestampSeconds)
                #expect(frame.sequence > last.sequence)
            }
            last = frame
        }
        // vivid draws colour bars: the top row holds several distinct, saturated colours.
        guard case .rgb(let image)? = last?.payload else { return }
        var colours = Set<[UInt8]>()
        for x in stride(from: 0, to: 320, by: 8) { let p = image[x, 2]; colours.insert([p.r / 32, p.g / 32, p.b / 32]) }
        #expect(colours.count >= 4)
        // Timestamps are on CLOCK_MONOTONIC: the frame is recent. (vivid stamps the scheduled end
        // of the frame period, so a fresh frame can be up to one period "in the future".)
        let age = TestDevices.now() - last!.timestampSeconds
        #expect(age > -1 && age < 5)
        let timing = try #require(camera.lastTiming)
        #expect(timing.overheadNanoseconds > 0 && timing.overheadNanoseconds < 1_000_000_000)
        #expect(abs(try #require(timing.ageNanoseconds)) < 5_000_000_000)
        #expect(camera.statistics.delivered == 8)
        #expect(camera.issues.isEmpty)
    }

    @Test func autoNegotiationFallsBackToYUYVOnVivid() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30))
        defer { camera.close() }
        #expect(camera.format.fourcc == .yuyv)
        #expect(camera.format.adjustments.contains { $0.contains("offers no MJPEG") })
        #expect(try camera.nextFrame() != nil)
    }

    @Test func readsBackWhatTheDriverSet() throws {
        // vivid's webcam has fixed sizes and at most 25 fps at 640x480: both requests get adjusted.
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 650, height: 470, framesPerSecond: 60, format: .yuyv))
        defer { camera.close() }
        #expect(camera.format.width == 640 && camera.format.height == 480)
        let fps = try #require(camera.format.framesPerSecond)
        #expect(fps <= 25)
        #expect(camera.format.adjustments.contains { $0.contains("asked 650x470, driver set 640x480") })
        #expect(camera.format.adjustments.contains { $0.contains("asked 60 fps") })
        #expect(camera.info.width == 640 && camera.info.codec == "YUYV")
        let frame = try #require(try camera.nextFrame())
        if case .rgb(let image) = frame.payload { #expect(image.width == 640 && image.height == 480) } else { Issue.record("expected RGB") }
    }

    @Test func exactRequestIsNotReportedAsAdjusted() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30, format: .yuyv))
        defer { camera.close() }
        #expect(camera.format.adjustments.isEmpty)
        #expect(camera.format.framesPerSecond == 30)
    }

    @Test func refusesMJPEGItDoesNotHave() {
        #expect(throws: CaptureError.self) {
            _ = try V4L2Camera(path: path, request: CaptureRequest(format: .mjpeg))
        }
        do {
            _ = try V4L2Camera(path: path, request: CaptureRequest(format: .mjpeg))
        } catch {
            guard case .unsupportedFormat(_, let requested, let available) = error else {
                Issue.record("expected unsupportedFormat, got \(error)")
                return
            }
            #expect(requested == "MJPG" && available.contains("YUYV"))
        }
    }

    @Test func secondStreamerIsBusy() throws {
        let first = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, format: .yuyv))
        defer { first.close() }
        #expect(throws: CaptureError.busy(path: path)) {
            _ = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, format: .yuyv))
        }
        _ = try first.nextFrame()  // the first one is unaffected
    }

    @Test func opensThroughASymlinkLikeByID() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("usb-Lorgnette_Test-video-index0-\(getpid())").path
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let camera = try V4L2Camera(path: link, request: CaptureRequest(width: 320, height: 180, format: .yuyv))
        defer { camera.close() }
        #expect(camera.device.devicePath == path && camera.device.path == link)
        #expect(try camera.nextFrame() != nil)
    }

    @Test func countsDroppedFramesFromSequenceGaps() throws {
        let panel = try V4L2ControlPanel(path: path)
        defer { try? panel.set("percentage_of_dropped_buffers", to: 0); panel.close() }
        try panel.set("percentage_of_dropped_buffers", to: 50)
        #expect(try panel.value("percentage_of_dropped_buffers") == 50)
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 60, format: .yuyv))
        defer { camera.close() }
        var sequences: [Int] = []
        for _ in 0..<12 { sequences.append(try #require(try camera.nextFrame()).sequence) }
        let stats = camera.statistics
        // Half the buffers vanish: gaps appear, and every gap is accounted for as a drop or a superseded frame.
        let missingBetweenDelivered = zip(sequences, sequences.dropFirst()).map { $1 - $0 - 1 }.reduce(0, +)
        #expect(stats.dropped > 0)
        #expect(stats.dropped + stats.superseded >= missingBetweenDelivered)
        #expect(stats.dropped <= missingBetweenDelivered)
    }

    @Test func noFramesIsATimeout() throws {
        let panel = try V4L2ControlPanel(path: path)
        defer { try? panel.set("percentage_of_dropped_buffers", to: 0); panel.close() }
        try panel.set("percentage_of_dropped_buffers", to: 100)
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30, format: .yuyv, timeoutSeconds: 0.5))
        defer { camera.close() }
        let start = TestDevices.now()
        #expect(throws: CaptureError.timeout(path: path, seconds: 0.5, framesSoFar: 0)) { _ = try camera.nextFrame() }
        #expect(TestDevices.now() - start < 3)
        // A timeout is not terminal: once frames flow again, capture resumes.
        try panel.set("percentage_of_dropped_buffers", to: 0)
        var resumed = false
        for _ in 0..<6 where !resumed { resumed = (try? camera.nextFrame()) != nil }
        #expect(resumed)
    }

    @Test func fatalDriverErrorIsAStreamFailure() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30, format: .yuyv))
        defer { camera.close() }
        _ = try camera.nextFrame()
        let panel = try V4L2ControlPanel(path: path)
        try panel.set("inject_fatal_streaming_error", to: 1)
        panel.close()
        var error: CaptureError?
        for _ in 0..<10 where error == nil {
            do { _ = try camera.nextFrame() } catch let e as CaptureError { error = e }
        }
        guard case .streamFailed(let failedPath, _)? = error else {
            Issue.record("expected streamFailed, got \(String(describing: error))")
            return
        }
        #expect(failedPath == path)
    }

    @Test func unplugIsReportedAsDisconnected() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30, format: .yuyv))
        _ = try camera.nextFrame()
        let panel = try V4L2ControlPanel(path: path)
        try panel.set("disconnect", to: 1)
        panel.close()
        var error: Error?
        for _ in 0..<10 where error == nil {
            do { _ = try camera.nextFrame() } catch let e { error = e }
        }
        #expect(error as? CaptureError == .disconnected(path: path))
        // Terminal: the next call says the same at once.
        #expect(throws: CaptureError.disconnected(path: path)) { _ = try camera.nextFrame() }
        camera.close()
        // vivid "re-plugs" once every handle is closed.
        let again = try V4L2Camera(path: path, request: CaptureRequest(width: 320, height: 180, format: .yuyv))
        defer { again.close() }
        #expect(try again.nextFrame() != nil)
    }

    @Test func reconnectsAfterUnplug() throws {
        let source = try ReconnectingCamera(path: path, request: CaptureRequest(width: 320, height: 180, framesPerSecond: 30, format: .yuyv),
                                            backoff: Backoff(initialSeconds: 0.05, maxSeconds: 0.5), giveUpAfterSeconds: 10)
        defer { source.close() }
        let before = try #require(try source.nextFrame())
        let panel = try V4L2ControlPanel(path: path)
        try panel.set("disconnect", to: 1)
        panel.close()
        var after: Frame?
        for _ in 0..<10 where source.statistics.reconnects == 0 { after = try source.nextFrame() }
        #expect(source.statistics.reconnects == 1)
        #expect(after != nil)
        #expect(source.issues.contains { $0.contains("disconnected") } && source.issues.contains { $0.contains("reconnected") })
        #expect(after!.timestampSeconds > before.timestampSeconds)
        #expect(source.statistics.delivered >= 2)
    }
}

/// MJPEG passthrough through v4l2loopback fed by the VM's mjpeg-feeder (or a real UVC camera).
@Suite(.serialized, .enabled(if: TestDevices.mjpeg != nil, "needs an MJPEG capture device (VIVID_VM_LOOPBACK=1 run of .ci/capture-integration.sh)"))
struct MJPEGCaptureTests {
    let path = TestDevices.mjpeg ?? "/dev/video1"

    @Test func passesJPEGFramesThrough() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 640, height: 480, framesPerSecond: 30, timeoutSeconds: 5))
        defer { camera.close() }
        #expect(camera.format.fourcc == .mjpeg || camera.format.fourcc == .jpeg)
        let decoder = TurboJPEGDecoder()
        var lastTimestamp = -Double.infinity
        for _ in 0..<6 {
            let frame = try #require(try camera.nextFrame())
            guard case .jpeg(let bytes) = frame.payload else {
                Issue.record("MJPEG should pass through as JPEG")
                return
            }
            // Cut at EOI even when the buffer was zero-padded.
            #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9])
            let image = try decoder.decodeRGB(bytes)
            #expect(image.width == camera.format.width && image.height == camera.format.height)
            #expect(frame.timestampSeconds > lastTimestamp)
            lastTimestamp = frame.timestampSeconds
        }
        #expect(camera.statistics.malformed == 0)
    }

    /// Asking for RGB24, which the device does not have, makes libv4l2 decode its MJPEG on the CPU.
    @Test func libv4l2ConvertsToRGBWhenAsked() throws {
        let camera = try V4L2Camera(path: path, request: CaptureRequest(width: 640, height: 480, framesPerSecond: 30, format: .rgb24, timeoutSeconds: 5))
        defer { camera.close() }
        #expect(camera.format.fourcc == .rgb24 && camera.format.emulated)
        #expect(camera.device.formats.contains { $0.fourcc == .rgb24 && $0.emulated })
        let frame = try #require(try camera.nextFrame())
        guard case .rgb(let image) = frame.payload else {
            Issue.record("RGB24 should arrive as RGB")
            return
        }
        #expect(image.width == camera.format.width && image.height == camera.format.height)
        // The feeder draws colour bars: a row crosses several distinct colours.
        var colours = Set<[UInt8]>()
        for x in stride(from: 0, to: image.width, by: 16) { let p = image[x, 8]; colours.insert([p.r / 64, p.g / 64, p.b / 64]) }
        #expect(colours.count >= 4)
    }
}
