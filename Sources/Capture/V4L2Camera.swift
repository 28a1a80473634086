import CV4L2
import Imaging
import Media
#if canImport(Glibc)
import Glibc
#endif

/// A V4L2 webcam as a `FrameSource`, over libv4l2 with mmap streaming.
///
/// Opening negotiates (see `FormatNegotiator`), sets the format and rate, reads both back
/// (`format`, with every adjustment the driver made in `format.adjustments`), maps the buffers and
/// starts streaming; so a busy or unsuitable device fails at open, not at the first frame.
///
/// `nextFrame()` polls with the request's timeout, dequeues every ready buffer and keeps only the
/// newest (latest-frame-wins, the rest re-queued at once), so the caller never lags the camera.
/// Payloads: MJPEG/JPEG pass through as `.jpeg` (cut at the end-of-image marker; Huffman tables
/// may be missing, as UVC cameras omit them); YUYV is converted to `.rgb`; RGB24/BGR24 (native, or
/// converted by libv4l2 from other formats) are copied to `.rgb`. `timestampSeconds` is the
/// buffer's CLOCK_MONOTONIC timestamp (the dequeue time, with a note in `issues`, for drivers
/// whose timestamps are on another clock). Buffers flagged V4L2_BUF_FLAG_ERROR and MJPEG frames
/// with broken framing are skipped and counted in `statistics`; drops are counted from `sequence` gaps.
///
/// `timeout` failures can be retried; `disconnected` and `streamFailed` end the stream (see
/// `ReconnectingCamera`). Not thread-safe: use from one thread.
public final class V4L2Camera: FrameSource {
    /// The path the camera was opened by (may be a `/dev/v4l/by-id/...` link).
    public let path: String
    /// The device and every format it offers, including libv4l2's emulated ones.
    public let device: DeviceDescription
    public let format: NegotiatedFormat
    public private(set) var statistics = CaptureStatistics()
    /// Capture cost of the last delivered frame.
    public private(set) var lastTiming: FrameTiming?
    public private(set) var issues: [String] = []

    private let handle: V4L2Handle
    private var mappings: [UnsafeMutableRawBufferPointer]
    private let timeoutNanoseconds: Int64
    private var gaps = SequenceGapCounter()
    private var streaming = true
    private var terminalError: CaptureError?
    private var warnedClock = false

    public var info: SourceInfo {
        SourceInfo(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond, codec: format.fourcc.description)
    }

    /// Opens and starts streaming from `path` (`/dev/videoN` or a `/dev/v4l/by-id/...` link).
    public init(path: String, request: CaptureRequest = CaptureRequest()) throws(CaptureError) {
        let handle = try V4L2Handle(path: path, allowConversion: true)
        let cap = try handle.queryCapability()
        try Self.requireCaptureAndStreaming(cap, path: path)
        let formats = try handle.enumerateFormats()
        let devicePath = CaptureDevices.resolvedPath(path)
        device = DeviceDescription(
            path: path, devicePath: devicePath, stableNames: CaptureDevices.stableNames(for: devicePath),
            name: cap.card, driver: cap.driver, bus: cap.bus, driverVersion: CapabilityNames.version(cap.version),
            capabilities: CapabilityNames.names(cap.nodeCapabilities), formats: formats)
        let choice = try FormatNegotiator.choose(request, from: formats, path: path)
        format = try Self.apply(choice, request: request, handle: handle, formats: formats)
        mappings = try Self.mapBuffers(handle: handle, count: request.bufferCount)
        self.path = path
        self.handle = handle
        timeoutNanoseconds = Int64(max(0.001, request.timeoutSeconds) * 1e9)
        var type = LV_BUF_TYPE_VIDEO_CAPTURE
        do {
            try handle.ioctl(LV_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        } catch {
            streaming = false
            close()
            throw error
        }
    }

    deinit { close() }

    /// The newest frame; blocks up to the request's timeout. Nil after `close()`.
    public func nextFrame() throws -> Frame? {
        if let terminalError { throw terminalError }
        guard streaming else { return nil }
        do {
            return try capture()
        } catch let error as CaptureError {
            if case .timeout = error {} else { terminalError = error }
            throw error
        }
    }

    /// Stops streaming and releases the buffers and the device. Safe to call twice.
    public func close() {
        if streaming {
            var type = LV_BUF_TYPE_VIDEO_CAPTURE
            _ = handle.tryIoctl(LV_VIDIOC_STREAMOFF, &type)
            streaming = false
        }
        if !mappings.isEmpty {
            for m in mappings { _ = lv_munmap(m.baseAddress, m.count) }
            mappings = []
            var rb = v4l2_requestbuffers()
            rb.type = LV_BUF_TYPE_VIDEO_CAPTURE
            rb.memory = LV_MEMORY_MMAP
            _ = handle.tryIoctl(LV_VIDIOC_REQBUFS, &rb)
        }
        handle.close()
    }

    // MARK: streaming

    private func capture() throws -> Frame? {
        let deadline = lv_monotonic_ns() + timeoutNanoseconds
        while true {
            let remaining = deadline - lv_monotonic_ns()
            if remaining <= 0 {
                throw CaptureError.timeout(path: path, seconds: Double(timeoutNanoseconds) / 1e9, framesSoFar: statistics.delivered)
            }
            var pfd = pollfd(fd: handle.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(Int64(Int32.max), (remaining + 999_999) / 1_000_000)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw CaptureError.system(path: path, operation: "poll", code: errno, message: CaptureError.errnoMessage(errno))
            }
            if ready == 0 { continue }
            if pfd.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { throw diagnosePollError() }
            guard pfd.revents & Int16(POLLIN) != 0 else { continue }

            var first = true
            let drained = try LatestFrameDrain.drain(
                limit: 4 * max(1, mappings.count),
                dequeue: {
                    // Ask poll, not DQBUF, whether more are ready: libv4l2 prints every failed
                    // DQBUF (EAGAIN included) to stderr.
                    if !first && !self.readable() { return nil }
                    first = false
                    return try self.dequeue()
                },
                requeue: queue, observe: { self.gaps.observe($0.sequence) })
            statistics.superseded += drained.superseded
            statistics.flaggedError += drained.flaggedError
            statistics.dropped = gaps.dropped
            guard let buffer = drained.newest else { continue }
            if let frame = try deliver(buffer) { return frame }
        }
    }

    private func readable() -> Bool {
        var pfd = pollfd(fd: handle.fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) == 1 && pfd.revents & Int16(POLLIN) != 0
    }

    private func dequeue() throws -> DequeuedBuffer? {
        var b = v4l2_buffer()
        b.type = LV_BUF_TYPE_VIDEO_CAPTURE
        b.memory = LV_MEMORY_MMAP
        let code = handle.tryIoctl(LV_VIDIOC_DQBUF, &b)
        if code == EAGAIN { return nil }
        if code != 0 { throw CaptureError.fromIoctl(errno: code, operation: "VIDIOC_DQBUF", path: path) }
        let dequeuedAt = lv_monotonic_ns()
        var timestamp = Int64(b.timestamp.tv_sec) * 1_000_000_000 + Int64(b.timestamp.tv_usec) * 1000
        let monotonic = b.flags & LV_BUF_FLAG_TIMESTAMP_MASK == LV_BUF_FLAG_TIMESTAMP_MONOTONIC
        if !monotonic {
            // Not on CLOCK_MONOTONIC (unknown or copied from an output stream): age and rate would lie.
            timestamp = dequeuedAt
            if !warnedClock {
                warnedClock = true
                issues.append("\(path): driver timestamps are not CLOCK_MONOTONIC; using the dequeue time")
            }
        }
        return DequeuedBuffer(index: Int(b.index), sequence: b.sequence, bytesUsed: Int(b.bytesused),
                              flaggedError: b.flags & LV_BUF_FLAG_ERROR != 0,
                              timestampNanoseconds: timestamp, monotonicTimestamp: monotonic, dequeuedAtNanoseconds: dequeuedAt)
    }

    private func queue(_ buffer: DequeuedBuffer) throws {
        var b = v4l2_buffer()
        b.type = LV_BUF_TYPE_VIDEO_CAPTURE
        b.memory = LV_MEMORY_MMAP
        b.index = UInt32(buffer.index)
        try handle.ioctl(LV_VIDIOC_QBUF, "VIDIOC_QBUF", &b)
    }

    /// Builds the frame from the buffer and re-queues it; nil for a malformed buffer (counted).
    private func deliver(_ buffer: DequeuedBuffer) throws -> Frame? {
        let mapping = mappings[buffer.index]
        let bytes = UnsafeRawBufferPointer(start: mapping.baseAddress, count: min(buffer.bytesUsed, mapping.count))
        let payload: Frame.Payload?
        switch format.fourcc {
        case .mjpeg, .jpeg:
            payload = JPEGFrameBounds.length(in: bytes).map { .jpeg(Array(bytes[0..<$0])) }
        case .yuyv:
            if bytes.count >= format.bytesPerLine * (format.height - 1) + 2 * format.width {
                var image = RGBImage(width: 0, height: 0)
                YUYVConverter.convert(bytes, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine,
                                      fullRange: format.fullRangeYCbCr, into: &image)
                payload = .rgb(image)
            } else {
                payload = nil
            }
        default:  // RGB3 / BGR3
            payload = copyRGB(bytes, swapRedBlue: format.fourcc == .bgr24).map { .rgb($0) }
        }
        try queue(buffer)
        guard let payload else {
            statistics.malformed += 1
            return nil
        }
        let handedOver = lv_monotonic_ns()
        lastTiming = FrameTiming(overheadNanoseconds: handedOver - buffer.dequeuedAtNanoseconds,
                                 ageNanoseconds: buffer.monotonicTimestamp ? handedOver - buffer.timestampNanoseconds : nil)
        let seconds = Double(buffer.timestampNanoseconds) / 1e9
        statistics.delivered += 1
        if statistics.firstTimestamp == nil { statistics.firstTimestamp = seconds }
        statistics.lastTimestamp = seconds
        return Frame(payload: payload, timestampSeconds: seconds, sequence: Int(buffer.sequence))
    }

    private func copyRGB(_ bytes: UnsafeRawBufferPointer, swapRedBlue: Bool) -> RGBImage? {
        let w = format.width, h = format.height
        let rowBytes = max(3 * w, format.bytesPerLine)
        guard h > 0, bytes.count >= rowBytes * (h - 1) + 3 * w, let src = bytes.baseAddress else { return nil }
        var image = RGBImage(width: w, height: h)
        image.pixels.withUnsafeMutableBytes { out in
            for y in 0..<h {
                out.baseAddress!.advanced(by: y * 3 * w).copyMemory(from: src + y * rowBytes, byteCount: 3 * w)
            }
            if swapRedBlue {
                let p = out.bindMemory(to: UInt8.self)
                for i in stride(from: 0, to: p.count, by: 3) { p.swapAt(i, i + 2) }
            }
        }
        return image
    }

    /// poll said POLLERR/POLLHUP: ask DQBUF for the real reason.
    private func diagnosePollError() -> CaptureError {
        var b = v4l2_buffer()
        b.type = LV_BUF_TYPE_VIDEO_CAPTURE
        b.memory = LV_MEMORY_MMAP
        let code = handle.tryIoctl(LV_VIDIOC_DQBUF, &b)
        if code == 0 { _ = handle.tryIoctl(LV_VIDIOC_QBUF, &b) }
        if code == ENODEV || code == ENXIO || access(device.devicePath, F_OK) != 0 { return .disconnected(path: path) }
        if code == EIO { return .streamFailed(path: path, reason: "the driver reported an I/O error (EIO)") }
        return .streamFailed(path: path, reason: "poll reported an error on the stream (POLLERR)")
    }

    // MARK: setup

    static func requireCaptureAndStreaming(_ cap: DeviceCapability, path: String) throws(CaptureError) {
        if !cap.canCapture {
            let missing = cap.nodeCapabilities & LV_CAP_VIDEO_CAPTURE_MPLANE != 0
                ? "single-planar video capture (multi-planar capture is not supported)"
                : "video capture capability (caps: \(CapabilityNames.names(cap.nodeCapabilities).joined(separator: ", ")))"
            throw .notACaptureDevice(path: path, name: cap.card, missing: missing)
        }
        if !cap.canStream {
            throw .notACaptureDevice(path: path, name: cap.card, missing: "streaming (mmap) I/O")
        }
    }

    /// S_FMT then G_FMT, S_PARM then G_PARM: sets, reads back and describes every adjustment.
    static func apply(_ choice: FormatChoice, request: CaptureRequest, handle: V4L2Handle,
                      formats: [FormatDescription]) throws(CaptureError) -> NegotiatedFormat {
        var adjustments: [String] = []
        if request.format == nil && choice.fourcc != .mjpeg && choice.fourcc != .jpeg {
            let how = "\(choice.fourcc)\(choice.emulated ? " converted by libv4l2" : "")"
            if formats.contains(where: { $0.fourcc == .mjpeg || $0.fourcc == .jpeg }) {
                adjustments.append("MJPEG comes less close to \(request.width)x\(request.height) at the rate asked: using \(how)")
            } else {
                adjustments.append("the device offers no MJPEG: using \(how)")
            }
        }
        var fmt = v4l2_format()
        fmt.type = LV_BUF_TYPE_VIDEO_CAPTURE
        fmt.fmt.pix.width = UInt32(choice.width)
        fmt.fmt.pix.height = UInt32(choice.height)
        fmt.fmt.pix.pixelformat = choice.fourcc.rawValue
        fmt.fmt.pix.field = LV_FIELD_NONE
        try handle.ioctl(LV_VIDIOC_S_FMT, "VIDIOC_S_FMT", &fmt)

        var got = v4l2_format()
        got.type = LV_BUF_TYPE_VIDEO_CAPTURE
        try handle.ioctl(LV_VIDIOC_G_FMT, "VIDIOC_G_FMT", &got)
        let pix = got.fmt.pix
        let fourcc = FourCC(rawValue: pix.pixelformat)
        guard FormatNegotiator.deliverable.contains(fourcc) else {
            throw .unsupportedFormat(path: handle.path, requested: choice.fourcc.description,
                                     available: ["\(fourcc) (the driver substituted it)"])
        }
        if fourcc != choice.fourcc { adjustments.append("asked \(choice.fourcc), driver set \(fourcc)") }
        let width = Int(pix.width), height = Int(pix.height)
        if width != request.width || height != request.height {
            adjustments.append("asked \(request.width)x\(request.height), driver set \(width)x\(height)")
        }
        if fourcc == .yuyv && width % 2 != 0 {
            throw .unsupportedFormat(path: handle.path, requested: "YUYV \(width)x\(height)", available: ["YUYV needs an even width"])
        }

        var parm = v4l2_streamparm()
        parm.type = LV_BUF_TYPE_VIDEO_CAPTURE
        let canQueryRate = handle.tryIoctl(LV_VIDIOC_G_PARM, &parm) == 0
        if let want = request.framesPerSecond {
            if canQueryRate && parm.parm.capture.capability & LV_CAP_TIMEPERFRAME != 0 {
                let interval = FrameInterval(framesPerSecond: want)
                parm.parm.capture.timeperframe.numerator = interval.numerator
                parm.parm.capture.timeperframe.denominator = interval.denominator
                let code = handle.tryIoctl(LV_VIDIOC_S_PARM, &parm)
                if code == EBUSY { throw .busy(path: handle.path) }
                if code != 0 { adjustments.append("the driver refused a frame rate of \(NegotiatedFormat.formatRate(want)) fps (\(CaptureError.errnoMessage(code)))") }
            } else {
                adjustments.append("the driver does not let us choose the frame rate")
            }
        }
        var fps: Double?
        var readBack = v4l2_streamparm()
        readBack.type = LV_BUF_TYPE_VIDEO_CAPTURE
        if handle.tryIoctl(LV_VIDIOC_G_PARM, &readBack) == 0 {
            let t = readBack.parm.capture.timeperframe
            fps = FrameInterval(numerator: t.numerator, denominator: t.denominator).framesPerSecond
        }
        if let want = request.framesPerSecond, let fps, abs(fps - want) > 0.01 {
            adjustments.append("asked \(NegotiatedFormat.formatRate(want)) fps, driver set \(NegotiatedFormat.formatRate(fps)) fps")
        }
        // V4L2_QUANTIZATION_FULL_RANGE = 1; the default (0) means full range only for the JPEG colourspace (7).
        let fullRange = pix.quantization == 1 || (pix.quantization == 0 && pix.colorspace == 7)
        let emulated = formats.first { $0.fourcc == fourcc }?.emulated ?? false
        return NegotiatedFormat(fourcc: fourcc, width: width, height: height, bytesPerLine: Int(pix.bytesperline),
                                sizeImage: Int(pix.sizeimage), framesPerSecond: fps, emulated: emulated,
                                fullRangeYCbCr: fullRange, adjustments: adjustments)
    }

    static func mapBuffers(handle: V4L2Handle, count: Int) throws(CaptureError) -> [UnsafeMutableRawBufferPointer] {
        var rb = v4l2_requestbuffers()
        rb.count = UInt32(max(1, count))
        rb.type = LV_BUF_TYPE_VIDEO_CAPTURE
        rb.memory = LV_MEMORY_MMAP
        try handle.ioctl(LV_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &rb)
        if rb.count == 0 {
            throw .system(path: handle.path, operation: "VIDIOC_REQBUFS", code: ENOMEM, message: "the driver granted no buffers")
        }
        var mappings: [UnsafeMutableRawBufferPointer] = []
        func release() {
            for m in mappings { _ = lv_munmap(m.baseAddress, m.count) }
            var none = v4l2_requestbuffers()
            none.type = LV_BUF_TYPE_VIDEO_CAPTURE
            none.memory = LV_MEMORY_MMAP
            _ = handle.tryIoctl(LV_VIDIOC_REQBUFS, &none)
        }
        for i in 0..<rb.count {
            var b = v4l2_buffer()
            b.type = LV_BUF_TYPE_VIDEO_CAPTURE
            b.memory = LV_MEMORY_MMAP
            b.index = i
            do {
                try handle.ioctl(LV_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &b)
            } catch {
                release()
                throw error
            }
            guard let base = lv_mmap(handle.fd, Int(b.length), Int64(b.m.offset)) else {
                let code = errno
                release()
                throw .system(path: handle.path, operation: "mmap", code: code, message: CaptureError.errnoMessage(code))
            }
            mappings.append(UnsafeMutableRawBufferPointer(start: base, count: Int(b.length)))
            do {
                try handle.ioctl(LV_VIDIOC_QBUF, "VIDIOC_QBUF", &b)
            } catch {
                release()
                throw error
            }
        }
        return mappings
    }
}
