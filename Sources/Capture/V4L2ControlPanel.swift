import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// A device control (VIDIOC_QUERYCTRL): brightness, exposure, or a driver's private ones such
/// as vivid's "Percentage of Dropped Buffers". `key` is the name as `v4l2-ctl` spells it
/// (lower case, runs of other characters as `_`: "percentage_of_dropped_buffers").
public struct V4L2Control: Sendable, Equatable {
    public var id: UInt32
    public var name: String
    public var type: UInt32
    public var minimum: Int32
    public var maximum: Int32
    public var defaultValue: Int32

    public var key: String { V4L2ControlPanel.key(for: name) }
}

/// Reads and sets a device's controls through its own handle; may be open while another handle
/// streams (controls are shared by all handles of a device). Close it when done: some state
/// (vivid's emulated unplug) only resets once every handle is closed.
public final class V4L2ControlPanel {
    private let handle: V4L2Handle

    public init(path: String) throws(CaptureError) {
        handle = try V4L2Handle(path: path, allowConversion: false)
        _ = try handle.queryCapability()
    }

    deinit { handle.close() }

    public func close() { handle.close() }

    /// Every control except class headings, in the driver's order.
    public func controls() -> [V4L2Control] {
        var out: [V4L2Control] = []
        var q = v4l2_queryctrl()
        q.id = LV_CTRL_FLAG_NEXT_CTRL
        while out.count < 1024, handle.tryIoctl(LV_VIDIOC_QUERYCTRL, &q) == 0 {
            if q.type != LV_CTRL_TYPE_CTRL_CLASS && q.flags & LV_CTRL_FLAG_DISABLED == 0 {
                out.append(V4L2Control(id: q.id, name: cString(q.name), type: q.type, minimum: q.minimum,
                                       maximum: q.maximum, defaultValue: q.default_value))
            }
            q.id |= LV_CTRL_FLAG_NEXT_CTRL
        }
        return out
    }

    /// The control with that `key` or name, nil if the device has none.
    public func control(_ keyOrName: String) -> V4L2Control? {
        let wanted = Self.key(for: keyOrName)
        return controls().first { $0.key == wanted }
    }

    /// Sets a control by key or name (a button control is pressed by any value).
    public func set(_ keyOrName: String, to value: Int32) throws(CaptureError) {
        guard let control = control(keyOrName) else {
            throw .system(path: handle.path, operation: "VIDIOC_S_CTRL", code: EINVAL, message: "no control named \(keyOrName)")
        }
        var c = v4l2_control(id: control.id, value: value)
        try handle.ioctl(LV_VIDIOC_S_CTRL, "VIDIOC_S_CTRL", &c)
    }

    public func value(_ keyOrName: String) throws(CaptureError) -> Int32 {
        guard let control = control(keyOrName) else {
            throw .system(path: handle.path, operation: "VIDIOC_G_CTRL", code: EINVAL, message: "no control named \(keyOrName)")
        }
        var c = v4l2_control(id: control.id, value: 0)
        try handle.ioctl(LV_VIDIOC_G_CTRL, "VIDIOC_G_CTRL", &c)
        return c.value
    }

    /// "Percentage of Dropped Buffers" -> "percentage_of_dropped_buffers", as v4l2-ctl names controls.
    public static func key(for name: String) -> String {
        var out = ""
        var pendingSeparator = false
        for ch in name.lowercased() {
            if ch.isASCII && (ch.isLetter || ch.isNumber) {
                if pendingSeparator && !out.isEmpty { out.append("_") }
                pendingSeparator = false
                out.append(ch)
            } else {
                pendingSeparator = true
            }
        }
        return out
    }
}
