import Capture
import Foundation
import Testing

/// Finds the devices the integration run provides: vivid at /dev/video0 and, with
/// VIVID_VM_LOOPBACK=1 and a feeder running, an MJPEG v4l2loopback node. Tests that need them
/// are disabled (with this reason) on machines without cameras.
enum TestDevices {
    static let skipReason: Comment = "needs a V4L2 device at /dev/video0 (run .ci/capture-integration.sh to test in the vivid VM)"

    static var anyCamera: Bool { FileManager.default.fileExists(atPath: "/dev/video0") }

    /// The vivid capture node, if the machine has one.
    static let vivid: String? = CaptureDevices.list().devices.first { $0.driver == "vivid" }?.devicePath

    /// A node that offers MJPEG (v4l2loopback with a feeder, or a real UVC camera).
    static let mjpeg: String? = CaptureDevices.list().devices.first { device in
        device.formats.contains { $0.fourcc == .mjpeg || $0.fourcc == .jpeg }
    }?.devicePath

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
