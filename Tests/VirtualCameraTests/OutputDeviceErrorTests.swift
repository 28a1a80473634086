import Foundation
import Testing
@testable import VirtualCamera

/// Errors that need no device; the device itself is exercised in the vivid VM (.ci/capture-integration.sh).
@Suite struct OutputDeviceErrorTests {
    @Test func aMissingDeviceSaysHowToMakeOne() {
        #expect(throws: VirtualCameraError.deviceMissing(path: "/dev/video-not-here")) {
            _ = try V4L2OutputDevice(path: "/dev/video-not-here")
        }
        #expect(VirtualCameraError.deviceMissing(path: "/dev/video9").description.contains("modprobe v4l2loopback"))
    }

    @Test func aCharacterDeviceThatIsNotV4L2IsRefused() {
        #expect(throws: VirtualCameraError.notAVideoDevice(path: "/dev/null")) { _ = try V4L2OutputDevice(path: "/dev/null") }
    }

    @Test func aRegularFileIsRefused() throws {
        let path = NSTemporaryDirectory() + "not-a-device-\(getpid())"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: VirtualCameraError.notAVideoDevice(path: path)) { _ = try V4L2OutputDevice(path: path) }
    }

    @Test func everyMessageIsOneLine() {
        let errors: [VirtualCameraError] = [
            .deviceMissing(path: "/dev/video9"), .permissionDenied(path: "/dev/video9"), .notAVideoDevice(path: "/dev/null"),
            .notAnOutputDevice(path: "/dev/video0", name: "vivid"), .busy(path: "/dev/video2", name: "Lorgnette"), .stuck(path: "/dev/video2", name: "Lorgnette"),
            .formatRefused(path: "/dev/video2", requested: "YUYV 640x480", got: "YUYV: refused"),
            .disconnected(path: "/dev/video2"), .system(path: "/dev/video2", operation: "write", code: EIO),
        ]
        for e in errors { #expect(!e.description.contains("\n") && !e.description.isEmpty) }
    }

    @Test func frameSizesPerFormat() {
        #expect(OutputPixelFormat.yuyv.frameBytes(width: 640, height: 480) == 614_400)
        #expect(OutputPixelFormat.i420.frameBytes(width: 640, height: 480) == 460_800)
        #expect(OutputPixelFormat.yuyv.bytesPerLine(width: 640) == 1280)
        #expect(OutputPixelFormat.allCases.first == .yuyv)
    }
}
