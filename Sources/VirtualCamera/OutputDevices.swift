import Capture
import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// A V4L2 output node the try-on can write to (a v4l2loopback virtual camera), as `devices` lists it.
public struct OutputDeviceDescription: Sendable, Equatable, Codable {
    public var path: String
    public var stableNames: [String]
    public var name: String
    public var driver: String
    public var capabilities: [String]
}

/// Finds the V4L2 output devices: nodes whose own capabilities include single-planar video output.
/// (A v4l2loopback device with `exclusive_caps=1` shows output only while nobody writes to it; while
/// a producer runs it is listed as a camera.)
public enum OutputDevices {
    public static func list() -> [OutputDeviceDescription] {
        CaptureDevices.nodePaths().compactMap { path in
            let fd = lv_open_output(path)
            guard fd >= 0 else { return nil }
            defer { Glibc.close(fd) }
            var raw = v4l2_capability()
            guard lv_raw_ioctl(fd, LV_VIDIOC_QUERYCAP, &raw) == 0 else { return nil }
            let cap = V4L2Parsing.capability(raw)
            guard cap.nodeCapabilities & LV_CAP_VIDEO_OUTPUT != 0 else { return nil }
            let devicePath = CaptureDevices.resolvedPath(path)
            return OutputDeviceDescription(path: devicePath, stableNames: CaptureDevices.stableNames(for: devicePath),
                                           name: cap.card, driver: cap.driver,
                                           capabilities: CapabilityNames.names(cap.nodeCapabilities))
        }
    }
}
