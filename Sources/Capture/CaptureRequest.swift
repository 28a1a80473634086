/// What the caller asks of a camera. The driver may adjust any of it; `V4L2Camera.format`
/// reports what was actually set.
public struct CaptureRequest: Sendable, Equatable {
    /// Frame size in pixels.
    public var width: Int
    public var height: Int
    /// Nil keeps the driver's current rate.
    public var framesPerSecond: Double?
    /// Nil negotiates automatically: MJPEG first (the compressed frame passes straight through),
    /// then YUYV, then RGB24 that libv4l2 converts from whatever the device has.
    /// `.mjpeg` also accepts a device's "JPEG" format; both deliver JPEG frames.
    public var format: FourCC?
    /// mmap buffers to request (drivers may grant more or fewer).
    public var bufferCount: Int
    /// How long `nextFrame()` waits for a frame before failing with `CaptureError.timeout`.
    public var timeoutSeconds: Double

    public init(width: Int = 640, height: Int = 480, framesPerSecond: Double? = 30, format: FourCC? = nil,
                bufferCount: Int = 4, timeoutSeconds: Double = 2) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.format = format
        self.bufferCount = bufferCount
        self.timeoutSeconds = timeoutSeconds
    }
}

/// The format, size and rate chosen from a device's enumeration, before the driver has its say.
public struct FormatChoice: Sendable, Equatable {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    /// True when libv4l2 converts to this format on the CPU.
    public var emulated: Bool
    /// The fastest rate the device lists for this size, when it lists any.
    public var maxFramesPerSecond: Double?
}

/// What the driver actually set after VIDIOC_S_FMT / VIDIOC_S_PARM, read back with G_FMT / G_PARM.
public struct NegotiatedFormat: Sendable, Equatable, CustomStringConvertible {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    /// Bytes per row of an uncompressed frame (0 for compressed formats).
    public var bytesPerLine: Int
    /// Maximum bytes of one frame (the buffer size).
    public var sizeImage: Int
    /// Nil when the driver does not report a rate.
    public var framesPerSecond: Double?
    public var emulated: Bool
    /// True for full-range (0...255) Y'CbCr, false for the limited 16...235 range (the V4L2 default for YUV).
    public var fullRangeYCbCr: Bool
    /// Every way the result differs from the request, in words ("asked 30 fps, driver set 25 fps").
    public var adjustments: [String]

    public var description: String {
        let rate = framesPerSecond.map { " @ \(Self.formatRate($0)) fps" } ?? ""
        return "\(fourcc) \(width)x\(height)\(rate)\(emulated ? " (converted by libv4l2)" : "")"
    }

    static func formatRate(_ fps: Double) -> String {
        let r = (fps * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
