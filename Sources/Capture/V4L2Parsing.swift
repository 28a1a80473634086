import CV4L2

/// What VIDIOC_QUERYCAP says about a node. `nodeCapabilities` are the node's own caps
/// (`device_caps`) when the driver reports them (V4L2_CAP_DEVICE_CAPS), else the whole device's:
/// a UVC camera's metadata node shares the device's caps but has no video capture of its own.
public struct DeviceCapability: Sendable, Equatable {
    public var driver: String
    public var card: String
    public var bus: String
    public var version: UInt32
    public var nodeCapabilities: UInt32

    public var canCapture: Bool { nodeCapabilities & LV_CAP_VIDEO_CAPTURE != 0 }
    public var canStream: Bool { nodeCapabilities & LV_CAP_STREAMING != 0 }
}

/// One answer of VIDIOC_ENUM_FRAMESIZES or VIDIOC_ENUM_FRAMEINTERVALS: a discrete value, or a
/// stepwise/continuous range (which ends the enumeration).
public enum EnumeratedValue<Discrete: Sendable & Equatable, Range: Sendable & Equatable>: Sendable, Equatable {
    case discrete(Discrete)
    case range(Range)
}

/// Turns the kernel's enumeration structs into the model types. Pure functions, so the parsing
/// is tested without a device.
public enum V4L2Parsing {
    public static func capability(_ cap: v4l2_capability) -> DeviceCapability {
        let node = cap.capabilities & LV_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        return DeviceCapability(driver: cString(cap.driver), card: cString(cap.card), bus: cString(cap.bus_info),
                                version: cap.version, nodeCapabilities: node)
    }

    /// The format without its sizes (those come from ENUM_FRAMESIZES).
    public static func format(_ desc: v4l2_fmtdesc) -> FormatDescription {
        FormatDescription(fourcc: FourCC(rawValue: desc.pixelformat), description: cString(desc.description),
                          compressed: desc.flags & LV_FMT_FLAG_COMPRESSED != 0, emulated: desc.flags & LV_FMT_FLAG_EMULATED != 0)
    }

    public static func frameSize(_ e: v4l2_frmsizeenum) -> EnumeratedValue<FrameSizeOption, SizeRange> {
        if e.type == LV_FRMSIZE_TYPE_DISCRETE {
            return .discrete(FrameSizeOption(width: Int(e.discrete.width), height: Int(e.discrete.height)))
        }
        let s = e.stepwise
        // CONTINUOUS reports steps of 1; some drivers leave them 0, which SizeRange treats as 1.
        return .range(SizeRange(minWidth: Int(s.min_width), maxWidth: Int(s.max_width), stepWidth: Int(s.step_width),
                                minHeight: Int(s.min_height), maxHeight: Int(s.max_height), stepHeight: Int(s.step_height)))
    }

    public static func frameInterval(_ e: v4l2_frmivalenum) -> EnumeratedValue<FrameInterval, IntervalRange> {
        if e.type == LV_FRMIVAL_TYPE_DISCRETE {
            return .discrete(FrameInterval(numerator: e.discrete.numerator, denominator: e.discrete.denominator))
        }
        let s = e.stepwise
        return .range(IntervalRange(min: FrameInterval(numerator: s.min.numerator, denominator: s.min.denominator),
                                    max: FrameInterval(numerator: s.max.numerator, denominator: s.max.denominator),
                                    step: FrameInterval(numerator: s.step.numerator, denominator: s.step.denominator)))
    }
}

/// A fixed-size C char array (imported as a tuple) up to its first NUL, as UTF-8.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}
