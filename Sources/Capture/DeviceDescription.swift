/// A frame size a format offers, with the frame rates the device lists for it.
/// `intervals` holds discrete intervals; `intervalRange` is set instead when the device gives a
/// stepwise or continuous range.
public struct FrameSizeOption: Hashable, Sendable, Codable {
    public var width: Int
    public var height: Int
    public var intervals: [FrameInterval]
    public var intervalRange: IntervalRange?

    public init(width: Int, height: Int, intervals: [FrameInterval] = [], intervalRange: IntervalRange? = nil) {
        self.width = width
        self.height = height
        self.intervals = intervals
        self.intervalRange = intervalRange
    }

    /// The fastest rate the device lists at this size, nil when it lists none.
    public var maxFramesPerSecond: Double? {
        let rates = intervals.compactMap(\.framesPerSecond) + [intervalRange?.min.framesPerSecond].compactMap { $0 }
        return rates.max()
    }
}

/// A stepwise (or, with a step of 1/1, continuous) frame interval range. `min` is the shortest interval.
public struct IntervalRange: Hashable, Sendable, Codable {
    public var min: FrameInterval
    public var max: FrameInterval
    public var step: FrameInterval

    public init(min: FrameInterval, max: FrameInterval, step: FrameInterval) {
        self.min = min
        self.max = max
        self.step = step
    }
}

/// A stepwise (or continuous, steps of 1) frame size range, in pixels.
public struct SizeRange: Hashable, Sendable, Codable {
    public var minWidth: Int, maxWidth: Int, stepWidth: Int
    public var minHeight: Int, maxHeight: Int, stepHeight: Int

    public init(minWidth: Int, maxWidth: Int, stepWidth: Int, minHeight: Int, maxHeight: Int, stepHeight: Int) {
        self.minWidth = minWidth; self.maxWidth = maxWidth; self.stepWidth = Swift.max(1, stepWidth)
        self.minHeight = minHeight; self.maxHeight = maxHeight; self.stepHeight = Swift.max(1, stepHeight)
    }

    /// The size in the range nearest to the one asked for (clamped, then rounded to the step).
    public func nearest(width: Int, height: Int) -> (width: Int, height: Int) {
        func fit(_ v: Int, _ lo: Int, _ hi: Int, _ step: Int) -> Int {
            let clamped = Swift.min(hi, Swift.max(lo, v))
            let snapped = lo + ((clamped - lo + step / 2) / step) * step
            return Swift.min(hi, snapped)
        }
        return (fit(width, minWidth, maxWidth, stepWidth), fit(height, minHeight, maxHeight, stepHeight))
    }
}

/// One pixel format a capture device offers (VIDIOC_ENUM_FMT) with its sizes and rates
/// (VIDIOC_ENUM_FRAMESIZES / VIDIOC_ENUM_FRAMEINTERVALS).
///
/// `emulated` formats are not the device's own: libv4l2 converts to them from a native format
/// on the CPU. `sizes` lists discrete sizes; `sizeRange` is set instead for stepwise devices.
public struct FormatDescription: Hashable, Sendable, Codable {
    public var fourcc: FourCC
    public var description: String
    public var compressed: Bool
    public var emulated: Bool
    public var sizes: [FrameSizeOption]
    public var sizeRange: SizeRange?

    public init(fourcc: FourCC, description: String, compressed: Bool = false, emulated: Bool = false,
                sizes: [FrameSizeOption] = [], sizeRange: SizeRange? = nil) {
        self.fourcc = fourcc
        self.description = description
        self.compressed = compressed
        self.emulated = emulated
        self.sizes = sizes
        self.sizeRange = sizeRange
    }
}

/// A V4L2 capture device as VIDIOC_QUERYCAP and the enumeration ioctls describe it.
///
/// `path` is what the caller named; `devicePath` the `/dev/videoN` node it resolves to;
/// `stableNames` the udev links (`/dev/v4l/by-id/...`, `/dev/v4l/by-path/...`) pointing at it,
/// which survive re-plugging and re-ordering, unlike `videoN` numbers.
public struct DeviceDescription: Hashable, Sendable, Codable {
    public var path: String
    public var devicePath: String
    public var stableNames: [String]
    /// The product name (`card`), e.g. "HD Pro Webcam C920".
    public var name: String
    public var driver: String
    public var bus: String
    /// Driver version as major.minor.patch.
    public var driverVersion: String
    /// Names of the node's capability bits (`device_caps`), e.g. ["video-capture", "streaming"].
    public var capabilities: [String]
    public var formats: [FormatDescription]

    public init(path: String, devicePath: String, stableNames: [String], name: String, driver: String, bus: String,
                driverVersion: String, capabilities: [String], formats: [FormatDescription]) {
        self.path = path
        self.devicePath = devicePath
        self.stableNames = stableNames
        self.name = name
        self.driver = driver
        self.bus = bus
        self.driverVersion = driverVersion
        self.capabilities = capabilities
        self.formats = formats
    }
}
