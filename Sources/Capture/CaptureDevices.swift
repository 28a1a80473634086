#if canImport(Glibc)
import Glibc
#endif

/// Finds and describes the V4L2 capture devices on this machine.
///
/// A UVC webcam shows up as two nodes: the video node and a metadata node; only nodes with
/// single-planar video capture are listed. Devices are listed as their native formats
/// (libv4l2 conversion off), so what you see is what the hardware sends.
public enum CaptureDevices {
    /// All `/dev/videoN` nodes, in numeric order.
    public static func nodePaths(in directory: String = "/dev") -> [String] {
        let numbers = directoryEntries(directory).compactMap { name -> Int? in
            guard name.hasPrefix("video") else { return nil }
            return Int(name.dropFirst(5))
        }
        return numbers.sorted().map { "\(directory)/video\($0)" }
    }

    /// Describes every capture device. Nodes that cannot be opened (busy ones can: V4L2 allows
    /// several opens) come back in `problems` as one-line messages instead.
    public static func list() -> (devices: [DeviceDescription], problems: [String]) {
        var devices: [DeviceDescription] = []
        var problems: [String] = []
        for path in nodePaths() {
            do {
                devices.append(try describe(path))
            } catch .notACaptureDevice {
                continue  // metadata, output or m2m nodes: not cameras
            } catch {
                problems.append(error.description)
            }
        }
        return (devices, problems)
    }

    /// Describes one device; throws unless it is a streaming capture device.
    public static func describe(_ path: String, includeEmulated: Bool = false) throws(CaptureError) -> DeviceDescription {
        let handle = try V4L2Handle(path: path, allowConversion: includeEmulated)
        defer { handle.close() }
        let cap = try handle.queryCapability()
        try V4L2Camera.requireCaptureAndStreaming(cap, path: path)
        let devicePath = resolvedPath(path)
        return DeviceDescription(
            path: path, devicePath: devicePath, stableNames: stableNames(for: devicePath),
            name: cap.card, driver: cap.driver, bus: cap.bus,
            driverVersion: CapabilityNames.version(cap.version), capabilities: CapabilityNames.names(cap.nodeCapabilities),
            formats: try handle.enumerateFormats())
    }

    /// The udev links (`/dev/v4l/by-id/*`, `/dev/v4l/by-path/*`) that resolve to `devicePath`.
    public static func stableNames(for devicePath: String) -> [String] {
        var names: [String] = []
        for dir in ["/dev/v4l/by-id", "/dev/v4l/by-path"] {
            for entry in directoryEntries(dir).sorted() {
                let link = "\(dir)/\(entry)"
                if resolvedPath(link) == devicePath { names.append(link) }
            }
        }
        return names
    }

    /// `path` with symlinks resolved; `path` itself when it cannot be resolved.
    public static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
