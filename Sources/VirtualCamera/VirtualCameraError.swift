#if canImport(Glibc)
import Glibc
#endif

/// Why the try-on cannot be written to a V4L2 output device; `description` is one line for the user.
public enum VirtualCameraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing at the path (no v4l2loopback device made yet).
    case deviceMissing(path: String)
    case permissionDenied(path: String)
    /// The node is not a V4L2 device at all.
    case notAVideoDevice(path: String)
    /// A V4L2 device that only captures (a webcam), or offers no single-planar video output.
    case notAnOutputDevice(path: String, name: String)
    /// A v4l2loopback device another program already writes to (it then shows capture only).
    case busy(path: String, name: String)
    /// A v4l2loopback device left announcing neither output nor capture by a producer that wrote
    /// without STREAMON (v4l2loopback 0.12.x with exclusive_caps=1); only reloading the module helps.
    case stuck(path: String, name: String)
    /// The driver does not take any of the formats asked for.
    case formatRefused(path: String, requested: String, got: String)
    /// The device was removed while the try-on wrote to it.
    case disconnected(path: String)
    /// Any other failing call, with the system's words.
    case system(path: String, operation: String, code: Int32)

    public var description: String {
        switch self {
        case .deviceMissing(let path):
            return "no video device at \(path) (make a virtual camera with `sudo modprobe v4l2loopback exclusive_caps=1 card_label=Lorgnette`; `lorgnette devices` lists output devices)"
        case .permissionDenied(let path):
            return "permission denied opening \(path): add your user to the 'video' group (usermod -aG video $USER) and log in again"
        case .notAVideoDevice(let path):
            return "\(path) is not a V4L2 video device"
        case .notAnOutputDevice(let path, let name):
            return "\(path) (\(name)) is not a video output device: it is a camera; write to a v4l2loopback device (`lorgnette devices` lists output devices)"
        case .busy(let path, let name):
            return "\(path) (\(name)) is busy: another program already writes to it (find it with `fuser \(path)`)"
        case .stuck(let path, let name):
            return "\(path) (\(name)) accepts no writer: a program that wrote to it before left it stuck; reload the module (sudo modprobe -r v4l2loopback && sudo modprobe v4l2loopback exclusive_caps=1 ...)"
        case .formatRefused(let path, let requested, let got):
            return "\(path) does not take \(requested) frames (the driver answered \(got))"
        case .disconnected(let path):
            return "\(path) was removed while the try-on wrote to it"
        case .system(let path, let operation, let code):
            let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
            return "\(path): \(operation) failed: \(text) (errno \(code))"
        }
    }

    static func fromOpen(errno code: Int32, path: String) -> VirtualCameraError {
        switch code {
        case ENOENT, ENXIO, ENODEV: return .deviceMissing(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ENOTTY, ENOTDIR, EISDIR: return .notAVideoDevice(path: path)
        case EBUSY: return .busy(path: path, name: "device")
        default: return .system(path: path, operation: "open", code: code)
        }
    }
}
