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

    func queryCapability() throws(CaptureError) -> DeviceCapability {
        var cap = v4l2_capability()
        try ioctl(LV_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &cap)
        return V4L2Parsing.capability(cap)
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
            var format = V4L2Parsing.format(desc)
            (format.sizes, format.sizeRange) = try enumerateSizes(format.fourcc)
            formats.append(format)
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
            switch V4L2Parsing.frameSize(e) {
            case .discrete(var size):
                (size.intervals, size.intervalRange) = try enumerateIntervals(fourcc, width: size.width, height: size.height)
                sizes.append(size)
            case .range(let range):
                return (sizes, range)
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
            switch V4L2Parsing.frameInterval(e) {
            case .discrete(let interval): intervals.append(interval)
            case .range(let range): return (intervals, range)
            }
        }
        return (intervals, nil)
    }
}
