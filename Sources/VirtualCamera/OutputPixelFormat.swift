import CV4L2

/// The pixel formats the try-on can write to a V4L2 output device, in the order tried when the
/// user does not choose: YUYV 4:2:2 first (what browsers' getUserMedia, Zoom and OBS take from a
/// virtual camera without conversion), then planar I420 (some consumers need it), then MJPEG.
public enum OutputPixelFormat: String, CaseIterable, Sendable {
    case yuyv
    case i420
    case mjpeg

    /// The V4L2 fourcc (`YUYV`, `YU12`, `MJPG`).
    public var fourcc: UInt32 {
        switch self {
        case .yuyv: return LV_PIX_FMT_YUYV
        case .i420: return LV_PIX_FMT_YUV420
        case .mjpeg: return LV_PIX_FMT_MJPEG
        }
    }

    /// The name `v4l2-ctl` and `lorgnette devices` print.
    public var fourccName: String {
        switch self {
        case .yuyv: return "YUYV"
        case .i420: return "YU12"
        case .mjpeg: return "MJPG"
        }
    }

    /// Raw formats carry whole pixels (4:2:x subsampling needs even sizes); MJPEG carries the JPEG.
    public var isRaw: Bool { self != .mjpeg }

    /// Bytes of the first plane's row (0 for MJPEG, which has no rows).
    public func bytesPerLine(width: Int) -> Int {
        switch self {
        case .yuyv: return 2 * width
        case .i420: return width
        case .mjpeg: return 0
        }
    }

    /// Bytes of one frame: exact for the raw formats; for MJPEG the buffer size asked of the driver
    /// (a 4:2:2 raw frame: a JPEG at any sane quality is far smaller).
    public func frameBytes(width: Int, height: Int) -> Int {
        switch self {
        case .yuyv, .mjpeg: return 2 * width * height
        case .i420: return width * height + 2 * ((width / 2) * (height / 2))
        }
    }
}
