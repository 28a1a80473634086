import CV4L2
import Media
#if canImport(Glibc)
import Glibc
#endif

/// A `V4L2Camera` that survives unplugging: when the stream ends with `disconnected` or
/// `streamFailed`, it closes the device (a re-plugged camera, and vivid, only come back once
/// every handle to the old one is closed) and re-opens the same path with `Backoff` delays,
/// giving up after `giveUpAfterSeconds` with the last error.
///
/// Open by a `/dev/v4l/by-id/...` path to find the same camera again even if it comes back as a
/// different `/dev/videoN`. Each reconnect is noted in `issues`; `statistics` add up all sessions.
public final class ReconnectingCamera: FrameSource {
    public let path: String
    public let request: CaptureRequest
    public let giveUpAfterSeconds: Double
    public private(set) var camera: V4L2Camera?
    public private(set) var issues: [String] = []
    private var backoff: Backoff
    private var finished = CaptureStatistics()
    private var reconnects = 0
    private var lastFormat: NegotiatedFormat

    /// Opens the camera now, so a wrong path or format fails at once rather than being retried.
    public init(path: String, request: CaptureRequest = CaptureRequest(), backoff: Backoff = Backoff(),
                giveUpAfterSeconds: Double = 30) throws(CaptureError) {
        self.path = path
        self.request = request
        self.backoff = backoff
        self.giveUpAfterSeconds = giveUpAfterSeconds
        let camera = try V4L2Camera(path: path, request: request)
        self.camera = camera
        lastFormat = camera.format
    }

    public var format: NegotiatedFormat { camera?.format ?? lastFormat }

    public var info: SourceInfo {
        SourceInfo(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond, codec: format.fourcc.description)
    }

    public var statistics: CaptureStatistics {
        var total = finished
        if let camera { total.add(camera.statistics) }
        total.reconnects = reconnects
        return total
    }

    public var lastTiming: FrameTiming? { camera?.lastTiming }

    public func nextFrame() throws -> Frame? {
        while true {
            if camera == nil { try reopen() }
            guard let camera else { return nil }
            do {
                return try camera.nextFrame()
            } catch let error as CaptureError {
                switch error {
                case .disconnected, .streamFailed:
                    issues.append("\(error.description); reconnecting")
                    retire(camera)
                default:
                    throw error
                }
            }
        }
    }

    public func close() {
        if let camera { retire(camera) }
    }

    private func retire(_ camera: V4L2Camera) {
        camera.close()
        issues += camera.issues
        finished.add(camera.statistics)
        lastFormat = camera.format
        self.camera = nil
    }

    private func reopen() throws(CaptureError) {
        let deadline = lv_monotonic_ns() + Int64(giveUpAfterSeconds * 1e9)
        backoff.reset()
        var lastError = CaptureError.disconnected(path: path)
        while lv_monotonic_ns() < deadline {
            let delay = backoff.next()
            usleep(UInt32(delay * 1e6))
            do {
                let camera = try V4L2Camera(path: path, request: request)
                self.camera = camera
                reconnects += 1
                issues.append("\(path): reconnected (\(camera.format))")
                return
            } catch {
                lastError = error
                switch error {
                // What a re-appearing USB device goes through: absent, gone again, not yet
                // permitted by udev, still held by the old handle, or not yet streaming.
                case .deviceMissing, .disconnected, .permissionDenied, .busy, .streamFailed, .timeout, .system:
                    continue
                default:
                    throw error
                }
            }
        }
        throw lastError
    }
}
