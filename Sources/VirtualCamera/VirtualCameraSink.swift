import Imaging

/// The try-on as a webcam: frames of any size go to a V4L2 output device in the format it
/// negotiated, through a `LatestFrameWriter` so the capture loop never waits for the device.
///
/// The first frame sets the device's format (its size, the run's rate); frames of another size
/// (a kiosk switching inputs, a device that kept another consumer's size) are scaled to it. The
/// conversion to YUYV/I420 runs on the caller's thread (about 1 ms per 640x480 frame: see
/// `Bench/`); the write on the writer's.
public final class VirtualCameraSink {
    public let device: V4L2OutputDevice
    public let formats: [OutputPixelFormat]
    private var writer: LatestFrameWriter?
    private var resizer: ImageResizer?
    private var scaled = RGBImage(width: 0, height: 0)

    /// Opens `path` (see `V4L2OutputDevice.init`); `formats` in order of preference.
    public init(path: String, formats: [OutputPixelFormat] = OutputPixelFormat.allCases) throws(VirtualCameraError) {
        device = try V4L2OutputDevice(path: path)
        self.formats = formats
    }

    /// What the device took (after the first frame).
    public var format: V4L2OutputDevice.NegotiatedFormat? { device.format }

    /// Delivered and superseded frames so far.
    public var counts: LatestFrameWriter.Counts { writer?.snapshot ?? .init() }

    /// Sends one frame: `image` for the raw formats, `jpeg` for MJPEG (the caller encodes it only
    /// when `needsJPEG`).
    public func send(image: RGBImage, jpeg: [UInt8], framesPerSecond: Double?) throws {
        let format = try device.format ?? start(width: image.width, height: image.height, framesPerSecond: framesPerSecond)
        guard let writer else { return }
        if format.pixelFormat == .mjpeg {
            try writer.submit { buffer in buffer.removeAll(keepingCapacity: true); buffer.append(contentsOf: jpeg) }
            return
        }
        let frame = scaledToDevice(image, format)
        try writer.submit { buffer in
            if format.pixelFormat == .yuyv { YUVPacking.yuyv(frame, into: &buffer) } else { YUVPacking.i420(frame, into: &buffer) }
        }
    }

    /// True when the device takes JPEG frames (known after the first frame; before it, whether
    /// MJPEG is the only format allowed).
    public var needsJPEG: Bool { (device.format?.pixelFormat ?? formats.first) == .mjpeg }

    /// Writes the last frame and stops the writer; throws its error, if any.
    public func finish() throws {
        defer { device.close() }
        try writer?.finish()
    }

    private func start(width: Int, height: Int, framesPerSecond: Double?) throws -> V4L2OutputDevice.NegotiatedFormat {
        // 4:2:x subsampling needs even sizes: an odd-sized photo loses its last column or row.
        let raw = formats.first?.isRaw ?? true
        let w = raw ? width & ~1 : width, h = raw ? height & ~1 : height
        let format = try device.configure(width: max(w, 2), height: max(h, 2), framesPerSecond: framesPerSecond, formats: formats)
        let device = self.device
        writer = LatestFrameWriter(name: "v4l2-output") { frame in
            // (An untyped closure: a typed-throws one crashes the 6.3.1 compiler's IR generation here.)
            try frame.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Void in try device.write(bytes) }
        }
        return format
    }

    private func scaledToDevice(_ image: RGBImage, _ format: V4L2OutputDevice.NegotiatedFormat) -> RGBImage {
        if image.width == format.width && image.height == format.height { return image }
        if resizer?.sourceWidth != image.width || resizer?.sourceHeight != image.height {
            resizer = ImageResizer(sourceWidth: image.width, sourceHeight: image.height,
                                   targetWidth: format.width, targetHeight: format.height, method: .area)
        }
        resizer!.resize(image, into: &scaled)
        return scaled
    }
}
