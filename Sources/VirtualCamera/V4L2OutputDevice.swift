import Capture
import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// A V4L2 video *output* node (a v4l2loopback virtual camera) written frame by frame with
/// write(2), as ffmpeg's v4l2 output does: each write of `sizeimage` bytes (or of one JPEG) is one
/// frame for every consumer. v4l2loopback copies it into its ring of buffers and never waits for a
/// reader, so a consumer that comes and goes does not stall or stop the writer.
///
/// Opened at once (so a missing, capture-only or busy device fails before the run starts); the
/// format is set with `configure` when the first frame's size is known, and read back.
public final class V4L2OutputDevice {
    public let path: String
    /// The product name the device reports (`card_label` for v4l2loopback).
    public let name: String
    public let driver: String
    /// What the driver accepted, after `configure`.
    public private(set) var format: NegotiatedFormat?
    private var fd: Int32

    /// The format as the driver read it back.
    public struct NegotiatedFormat: Sendable, Equatable, CustomStringConvertible {
        public var pixelFormat: OutputPixelFormat
        public var width: Int
        public var height: Int
        public var bytesPerLine: Int
        /// Bytes of one raw frame (the buffer size for MJPEG).
        public var frameBytes: Int
        /// The frame rate the driver took (nil when it does not take one).
        public var framesPerSecond: Double?

        public var description: String {
            "\(pixelFormat.fourccName) \(width)x\(height)" + (framesPerSecond.map { " @ \(Self.rate($0)) fps" } ?? "")
        }

        static func rate(_ fps: Double) -> String {
            fps == fps.rounded() ? String(Int(fps)) : String((fps * 100).rounded() / 100)
        }
    }

    /// Opens `path` and checks that it is an output device nobody else writes to.
    public init(path: String) throws(VirtualCameraError) {
        self.path = path
        var st = stat()
        if stat(path, &st) != 0 { throw .fromOpen(errno: errno, path: path) }
        if st.st_mode & S_IFMT != S_IFCHR { throw .notAVideoDevice(path: path) }
        let fd = lv_open_output(path)
        if fd < 0 { throw .fromOpen(errno: errno, path: path) }
        self.fd = fd
        var raw = v4l2_capability()
        guard lv_raw_ioctl(fd, LV_VIDIOC_QUERYCAP, &raw) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(path: path, operation: "VIDIOC_QUERYCAP", code: code)
        }
        let cap = V4L2Parsing.capability(raw)
        name = cap.card
        driver = cap.driver
        guard cap.nodeCapabilities & LV_CAP_VIDEO_OUTPUT != 0 else {
            Glibc.close(fd)
            // v4l2loopback with exclusive_caps=1 shows capture only while a producer writes to it, and
            // neither capture nor output when a producer that never called STREAMON left (0.12.x).
            if Self.isLoopback(driver: cap.driver) {
                if !cap.canCapture { throw .stuck(path: path, name: cap.card) }
                throw .busy(path: path, name: cap.card)
            }
            throw .notAnOutputDevice(path: path, name: cap.card)
        }
    }

    deinit { close() }

    public func close() {
        guard fd >= 0 else { return }
        if format != nil {
            var type = LV_BUF_TYPE_VIDEO_OUTPUT
            _ = lv_raw_ioctl(fd, LV_VIDIOC_STREAMOFF, &type)
        }
        Glibc.close(fd)
        fd = -1
    }

    static func isLoopback(driver: String) -> Bool { driver.lowercased().contains("loopback") }

    /// Sets the first of `formats` the driver takes at `width x height` and `framesPerSecond`, and
    /// reads back what it took. A driver that keeps another size (v4l2loopback holding the format of
    /// a consumer that asked first) is followed: frames are then scaled to the size read back.
    @discardableResult
    public func configure(width: Int, height: Int, framesPerSecond: Double?, formats: [OutputPixelFormat]) throws(VirtualCameraError) -> NegotiatedFormat {
        var refused: [String] = []
        for pixelFormat in formats {
            var f = v4l2_format()
            f.type = LV_BUF_TYPE_VIDEO_OUTPUT
            f.fmt.pix.width = UInt32(width)
            f.fmt.pix.height = UInt32(height)
            f.fmt.pix.pixelformat = pixelFormat.fourcc
            f.fmt.pix.field = LV_FIELD_NONE
            f.fmt.pix.bytesperline = UInt32(pixelFormat.bytesPerLine(width: width))
            f.fmt.pix.sizeimage = UInt32(pixelFormat.frameBytes(width: width, height: height))
            f.fmt.pix.colorspace = pixelFormat == .mjpeg ? LV_COLORSPACE_JPEG : LV_COLORSPACE_SMPTE170M
            if lv_raw_ioctl(fd, LV_VIDIOC_S_FMT, &f) != 0 {
                let code = errno
                if code == EBUSY { throw .busy(path: path, name: name) }
                if code == ENODEV { throw .disconnected(path: path) }
                if code == EINVAL { refused.append("\(pixelFormat.fourccName): refused"); continue }
                throw .system(path: path, operation: "VIDIOC_S_FMT", code: code)
            }
            var back = v4l2_format()
            back.type = LV_BUF_TYPE_VIDEO_OUTPUT
            if lv_raw_ioctl(fd, LV_VIDIOC_G_FMT, &back) != 0 { back = f }
            guard back.fmt.pix.pixelformat == pixelFormat.fourcc else {
                refused.append("\(pixelFormat.fourccName): took \(FourCC(rawValue: back.fmt.pix.pixelformat))")
                continue
            }
            let w = Int(back.fmt.pix.width), h = Int(back.fmt.pix.height)
            guard w > 0, h > 0, !pixelFormat.isRaw || (w % 2 == 0 && (pixelFormat != .i420 || h % 2 == 0)) else {
                refused.append("\(pixelFormat.fourccName): size \(w)x\(h)")
                continue
            }
            let expected = pixelFormat.frameBytes(width: w, height: h)
            var negotiated = NegotiatedFormat(
                pixelFormat: pixelFormat, width: w, height: h,
                bytesPerLine: max(Int(back.fmt.pix.bytesperline), pixelFormat.bytesPerLine(width: w)),
                frameBytes: max(Int(back.fmt.pix.sizeimage), expected), framesPerSecond: nil)
            if pixelFormat.isRaw && negotiated.bytesPerLine != pixelFormat.bytesPerLine(width: w) {
                refused.append("\(pixelFormat.fourccName): padded rows (\(negotiated.bytesPerLine) bytes)")
                continue
            }
            negotiated.frameBytes = pixelFormat.isRaw ? expected : negotiated.frameBytes
            negotiated.framesPerSecond = setRate(framesPerSecond)
            // Frames go out with write(2), but STREAMON is what marks this handle as the writer in
            // v4l2loopback 0.12: without it, closing leaves the device announcing neither output nor
            // capture (exclusive_caps=1) until the module is reloaded, as ffmpeg's v4l2 output does. Drivers
            // that want buffers queued first refuse it (EINVAL), which write(2) does not need.
            var type = LV_BUF_TYPE_VIDEO_OUTPUT
            _ = lv_raw_ioctl(fd, LV_VIDIOC_STREAMON, &type)
            format = negotiated
            return negotiated
        }
        throw .formatRefused(path: path, requested: formats.map(\.fourccName).joined(separator: " or ") + " \(width)x\(height)",
                             got: refused.joined(separator: "; "))
    }

    /// Sets the output frame interval (consumers read it as the camera's rate); returns the rate read back.
    private func setRate(_ framesPerSecond: Double?) -> Double? {
        var parm = v4l2_streamparm()
        parm.type = LV_BUF_TYPE_VIDEO_OUTPUT
        if let fps = framesPerSecond, fps > 0, fps.isFinite {
            parm.parm.output.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32(max(1, (fps * 1000).rounded())))
            _ = lv_raw_ioctl(fd, LV_VIDIOC_S_PARM, &parm)
        }
        var back = v4l2_streamparm()
        back.type = LV_BUF_TYPE_VIDEO_OUTPUT
        guard lv_raw_ioctl(fd, LV_VIDIOC_G_PARM, &back) == 0 else { return nil }
        let t = back.parm.output.timeperframe
        return t.numerator > 0 && t.denominator > 0 ? Double(t.denominator) / Double(t.numerator) : nil
    }

    /// Writes one frame (raw: exactly `format.frameBytes`; MJPEG: one JPEG). Blocks only as long as
    /// the driver's copy takes; call it from the writer thread, not the capture loop.
    public func write(_ frame: UnsafeRawBufferPointer) throws(VirtualCameraError) {
        guard let base = frame.baseAddress, fd >= 0 else { throw .disconnected(path: path) }
        while true {
            let r = Glibc.write(fd, base, frame.count)
            if r == frame.count { return }
            if r >= 0 { throw .system(path: path, operation: "write (\(r) of \(frame.count) bytes)", code: EIO) }
            let code = errno
            if code == EINTR { continue }
            if code == ENODEV || code == ENXIO { throw .disconnected(path: path) }
            throw .system(path: path, operation: "write", code: code)
        }
    }
}
