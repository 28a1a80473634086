#if canImport(Glibc)
import Glibc
#endif

/// Why a camera could not be opened or stopped delivering frames. Each case is a distinct,
/// actionable condition; `description` is a one-line message for the user.
///
/// `disconnected` and `streamFailed` are the states a reconnecting source recovers from;
/// the others need the user (or another program) to act.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing at that path, or a node with no device behind it (ENOENT, ENXIO).
    case deviceMissing(path: String)
    /// EACCES / EPERM: the user may not open the node.
    case permissionDenied(path: String)
    /// EBUSY: another program streams from the device (or holds its format).
    case busy(path: String)
    /// The node exists but is not a V4L2 device (VIDIOC_QUERYCAP fails with ENOTTY or EINVAL).
    case notAVideoDevice(path: String)
    /// A V4L2 node that cannot serve us: no single-planar capture, or no streaming I/O.
    case notACaptureDevice(path: String, name: String, missing: String)
    /// No offered format (native or converted by libv4l2) matches the request.
    case unsupportedFormat(path: String, requested: String, available: [String])
    /// No frame within the timeout.
    case timeout(path: String, seconds: Double, framesSoFar: Int)
    /// The device went away after it was opened (ENODEV, or POLLERR / POLLHUP from poll): unplugged.
    case disconnected(path: String)
    /// The driver reported an unrecoverable streaming error (EIO from VIDIOC_DQBUF, or POLLERR
    /// while the device is still there).
    case streamFailed(path: String, reason: String)
    /// Any other failing call, with the system's words.
    case system(path: String, operation: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .deviceMissing(let path):
            return "no video device at \(path) (is the camera plugged in? `lorgnette devices` lists the ones present)"
        case .permissionDenied(let path):
            return "permission denied opening \(path): add your user to the 'video' group (usermod -aG video $USER) and log in again"
        case .busy(let path):
            return "\(path) is busy: another program is using the camera (find it with `fuser \(path)`)"
        case .notAVideoDevice(let path):
            return "\(path) is not a V4L2 video device"
        case .notACaptureDevice(let path, let name, let missing):
            return "\(path) (\(name)) cannot be used for capture: it has no \(missing)"
        case .unsupportedFormat(let path, let requested, let available):
            let offer = available.isEmpty ? "nothing usable" : available.joined(separator: ", ")
            return "\(path) cannot deliver \(requested); it offers \(offer)"
        case .timeout(let path, let seconds, let framesSoFar):
            let when = framesSoFar == 0 ? "no frame at all" : "no new frame after \(framesSoFar) frames"
            return "\(path): \(when) within \(formatSeconds(seconds)) s (camera stalled, covered or starved of USB bandwidth?)"
        case .disconnected(let path):
            return "\(path) was disconnected (unplugged)"
        case .streamFailed(let path, let reason):
            return "\(path): streaming failed: \(reason)"
        case .system(let path, let operation, let code, let message):
            return "\(path): \(operation) failed: \(message) (errno \(code))"
        }
    }

    /// Maps a failed `open(2)` of `path`.
    public static func fromOpen(errno code: Int32, path: String) -> CaptureError {
        switch code {
        case ENOENT, ENXIO, ENODEV: return .deviceMissing(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case EBUSY: return .busy(path: path)
        // libv4l2 fails the open itself with ENOTTY when QUERYCAP is not understood.
        case ENOTDIR, EISDIR, ENOTTY: return .notAVideoDevice(path: path)
        default: return .system(path: path, operation: "open", code: code, message: errnoMessage(code))
        }
    }

    /// Maps a failed ioctl (`operation` is its name, e.g. "VIDIOC_S_FMT") on an open device.
    public static func fromIoctl(errno code: Int32, operation: String, path: String) -> CaptureError {
        switch code {
        case ENODEV, ENXIO: return .disconnected(path: path)
        case EBUSY: return .busy(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ENOTTY where operation == "VIDIOC_QUERYCAP": return .notAVideoDevice(path: path)
        case EIO where operation == "VIDIOC_DQBUF" || operation == "VIDIOC_QBUF":
            return .streamFailed(path: path, reason: "the driver reported an I/O error (EIO) on \(operation)")
        default: return .system(path: path, operation: operation, code: code, message: errnoMessage(code))
        }
    }

    static func errnoMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

private func formatSeconds(_ s: Double) -> String {
    let tenths = (s * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
}
