import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// An open V4L2 node (through libv4l2) and the ioctl helpers that turn errno into `CaptureError`.
/// Closes the fd when released.
final class V4L2Handle {
    let path: String
    let fd: Int32
    private var closed = false

    /// Opens `path` (a `/dev/videoN` node or a udev link to one).
    init(path: String, allowConversion: Bool) throws(CaptureError) {
        self.path = path
        var st = stat()
        if stat(path, &st) != 0 { throw CaptureError.fromOpen(errno: errno, path: path) }
        // open(2) on a FIFO or a disk file would "succeed"; a camera is a character device.
        if st.st_mode & S_IFMT != S_IFCHR { throw .notAVideoDevice(path: path) }
        let fd = lv_open(path, allowConversion ? 1 : 0)
        if fd < 0 { throw CaptureError.fromOpen(errno: errno, path: path) }
        self.fd = fd
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        _ = lv_close(fd)
    }

    /// Runs an ioctl; throws the mapped error on failure.
    func ioctl<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(CaptureError) {
        let code = withUnsafeMutablePointer(to: &argument) { lv_ioctl(fd, request, $0) == 0 ? 0 : errno }
        if code != 0 { throw CaptureError.fromIoctl(errno: code, operation: name, path: path) }
    }

    /// Runs an ioctl; returns 0 or the errno (for calls where failure ends a loop or is expected).
    func tryIoctl<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        withUnsafeMutablePointer(to: &argument) { lv_ioctl(fd, request, $0) == 0 ? 0 : errno }
    }

    struct Capability {
        var driver: String, card: String, bus: String, version: UInt32
        /// The node's own caps (`device_caps`), or the whole device's for drivers too old to say.
        var deviceCaps: UInt32
    }

    func queryCapability() throws(CaptureError) -> Capability {
        var cap = v4l2_capability()
        try ioctl(LV_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &cap)
        let caps = cap.capabilities & LV_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        return Capability(driver: cString(cap.driver), card: cString(cap.card), bus: cString(cap.bus_info),
                          version: cap.version, deviceCaps: caps)
    }

    /// Every capture format with its sizes and rates.
    func enumerateFormats() throws(CaptureError) -> [FormatDescription] {
        var formats: [FormatDescription] = []
        var desc = v4l2_fmtdesc()
        desc.type = LV_BUF_TYPE_VIDEO_CAPTURE
        while true {
            desc.index = UInt32(formats.count)
            let code = tryIoctl(LV_VIDIOC_ENUM_FMT, &desc)
            if code == EINVAL { break }
            if code != 0 { throw CaptureError.fromIoctl(errno: code, operation: "VIDIOC_ENUM_FMT", path: path) }
            let fourcc = FourCC(rawValue: desc.pixelformat)
            let (sizes, range) = try enumerateSizes(fourcc)
            formats.append(FormatDescription(
                fourcc: fourcc, description: cString(desc.description),
                compressed: desc.flags & LV_FMT_FLAG_COMPRESSED != 0, emulated: desc.flags & LV_FMT_FLAG_EMULATED != 0,
                sizes: sizes, sizeRange: range))
            if formats.count > 256 { break }  // a broken driver that never says EINVAL
        }
        return formats
    }

    private func enumerateSizes(_ fourcc: FourCC) throws(CaptureError) -> ([FrameSizeOption], SizeRange?) {
        var sizes: [FrameSizeOption] = []
        var e = v4l2_frmsizeenum()
        e.pixel_format = fourcc.rawValue
        while sizes.count < 512 {
            e.index = UInt32(sizes.count)
            let code = tryIoctl(LV_VIDIOC_ENUM_FRAMESIZES, &e)
            // EINVAL ends the list; ENOTTY: the driver does not enumerate sizes at all.
            if code == EINVAL || code == ENOTTY { break }
            if code != 0 { throw CaptureError.fromIoctl(errno: code, operation: "VIDIOC_ENUM_FRAMESIZES", path: path) }
            if e.type == LV_FRMSIZE_TYPE_DISCRETE {
                let w = Int(e.discrete.width), h = Int(e.discrete.height)
                let (intervals, range) = try enumerateIntervals(fourcc, width: w, height: h)
                sizes.append(FrameSizeOption(width: w, height: h, intervals: intervals, intervalRange: range))
            } else {
                let s = e.stepwise
                return (sizes, SizeRange(minWidth: Int(s.min_width), maxWidth: Int(s.max_width), stepWidth: Int(s.step_width),
                                         minHeight: Int(s.min_height), maxHeight: Int(s.max_height), stepHeight: Int(s.step_height)))
            }
        }
        return (sizes, nil)
    }

    private func enumerateIntervals(_ fourcc: FourCC, width: Int, height: Int) throws(CaptureError) -> ([FrameInterval], IntervalRange?) {
        var intervals: [FrameInterval] = []
        var e = v4l2_frmivalenum()
        e.pixel_format = fourcc.rawValue
        e.width = UInt32(width)
        e.height = UInt32(height)
        while intervals.count < 256 {
            e.index = UInt32(intervals.count)
            let code = tryIoctl(LV_VIDIOC_ENUM_FRAMEINTERVALS, &e)
            if code == EINVAL || code == ENOTTY { break }
            if code != 0 { throw CaptureError.fromIoctl(errno: code, operation: "VIDIOC_ENUM_FRAMEINTERVALS", path: path) }
            if e.type == LV_FRMIVAL_TYPE_DISCRETE {
                intervals.append(FrameInterval(numerator: e.discrete.numerator, denominator: e.discrete.denominator))
            } else {
                let s = e.stepwise
                return (intervals, IntervalRange(min: FrameInterval(numerator: s.min.numerator, denominator: s.min.denominator),
                                                 max: FrameInterval(numerator: s.max.numerator, denominator: s.max.denominator),
                                                 step: FrameInterval(numerator: s.step.numerator, denominator: s.step.denominator)))
            }
        }
        return (intervals, nil)
    }
}

/// A fixed-size C char array (imported as a tuple) up to its first NUL, as UTF-8.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
