import Capture
import Foundation
import Testing

@Suite struct CaptureErrorTests {
    @Test func openErrnoMapsToDistinctStates() {
        #expect(CaptureError.fromOpen(errno: ENOENT, path: "/dev/video9") == .deviceMissing(path: "/dev/video9"))
        #expect(CaptureError.fromOpen(errno: EACCES, path: "/dev/video0") == .permissionDenied(path: "/dev/video0"))
        #expect(CaptureError.fromOpen(errno: EBUSY, path: "/dev/video0") == .busy(path: "/dev/video0"))
        #expect(CaptureError.fromOpen(errno: ENOTTY, path: "/dev/null") == .notAVideoDevice(path: "/dev/null"))
        if case .system(_, let op, let code, _) = CaptureError.fromOpen(errno: EMFILE, path: "x") {
            #expect(op == "open" && code == EMFILE)
        } else {
            Issue.record("EMFILE should be a system error")
        }
    }

    @Test func ioctlErrnoMapsToDistinctStates() {
        #expect(CaptureError.fromIoctl(errno: ENODEV, operation: "VIDIOC_DQBUF", path: "v") == .disconnected(path: "v"))
        #expect(CaptureError.fromIoctl(errno: EBUSY, operation: "VIDIOC_S_FMT", path: "v") == .busy(path: "v"))
        #expect(CaptureError.fromIoctl(errno: ENOTTY, operation: "VIDIOC_QUERYCAP", path: "v") == .notAVideoDevice(path: "v"))
        if case .streamFailed = CaptureError.fromIoctl(errno: EIO, operation: "VIDIOC_DQBUF", path: "v") {} else {
            Issue.record("EIO on DQBUF is a stream failure")
        }
        if case .system = CaptureError.fromIoctl(errno: EINVAL, operation: "VIDIOC_S_FMT", path: "v") {} else {
            Issue.record("EINVAL on S_FMT is a plain system error")
        }
    }

    @Test func messagesAreDistinctSingleLines() {
        let errors: [CaptureError] = [
            .deviceMissing(path: "/dev/video0"), .permissionDenied(path: "/dev/video0"), .busy(path: "/dev/video0"),
            .notAVideoDevice(path: "/dev/null"), .notACaptureDevice(path: "/dev/video1", name: "meta", missing: "video capture capability"),
            .unsupportedFormat(path: "/dev/video0", requested: "MJPG", available: ["YUYV"]),
            .timeout(path: "/dev/video0", seconds: 2, framesSoFar: 0), .disconnected(path: "/dev/video0"),
            .streamFailed(path: "/dev/video0", reason: "EIO"),
            .system(path: "/dev/video0", operation: "mmap", code: ENOMEM, message: "Cannot allocate memory"),
        ]
        let texts = errors.map(\.description)
        #expect(Set(texts).count == texts.count)
        for text in texts { #expect(!text.contains("\n") && text.contains("/dev/")) }
        #expect(CaptureError.timeout(path: "c", seconds: 2, framesSoFar: 0).description.contains("no frame at all within 2 s"))
        #expect(CaptureError.permissionDenied(path: "c").description.contains("video"))
    }

    @Test func openingAMissingPathFailsAsMissing() {
        #expect(throws: CaptureError.deviceMissing(path: "/dev/video-lorgnette-none")) {
            _ = try V4L2Camera(path: "/dev/video-lorgnette-none")
        }
    }

    @Test func openingSomethingElseFailsAsNotAVideoDevice() throws {
        // /dev/null is a character device that answers no V4L2 ioctl; a plain file and a folder are not devices.
        #expect(throws: CaptureError.notAVideoDevice(path: "/dev/null")) { _ = try V4L2Camera(path: "/dev/null") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lorgnette-not-a-camera-\(getpid())").path
        _ = FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3]))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: CaptureError.notAVideoDevice(path: file)) { _ = try V4L2Camera(path: file) }
        #expect(throws: CaptureError.notAVideoDevice(path: "/tmp")) { _ = try V4L2Camera(path: "/tmp") }
    }

    @Test func deviceNodesListInNumericOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lorgnette-dev-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["video10", "video2", "videoX", "media0", "video0"] {
            _ = FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: nil)
        }
        #expect(CaptureDevices.nodePaths(in: dir) == ["\(dir)/video0", "\(dir)/video2", "\(dir)/video10"])
    }
}
