import CV4L2
import Capture
import Testing

/// The kernel structs as a driver fills them, parsed without a device.
@Suite struct V4L2ParsingTests {
    static func setText<T>(_ field: inout T, _ text: String) {
        withUnsafeMutableBytes(of: &field) { raw in
            for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
    }

    @Test func capabilityPrefersTheNodesOwnCaps() {
        // A UVC camera's metadata node: the device can capture and stream, this node cannot.
        var cap = v4l2_capability()
        Self.setText(&cap.driver, "uvcvideo")
        Self.setText(&cap.card, "HD Pro Webcam C920")
        Self.setText(&cap.bus_info, "usb-0000:00:14.0-1")
        cap.version = 0x0006_0100
        cap.capabilities = LV_CAP_VIDEO_CAPTURE | LV_CAP_STREAMING | LV_CAP_DEVICE_CAPS | 0x0080_0000
        cap.device_caps = 0x0080_0000 | LV_CAP_STREAMING  // meta-capture
        let parsed = V4L2Parsing.capability(cap)
        #expect(parsed.driver == "uvcvideo" && parsed.card == "HD Pro Webcam C920" && parsed.bus == "usb-0000:00:14.0-1")
        #expect(!parsed.canCapture && parsed.canStream)
        #expect(CapabilityNames.names(parsed.nodeCapabilities) == ["meta-capture", "streaming"])
        // An old driver without device_caps: the device-wide caps apply.
        cap.capabilities = LV_CAP_VIDEO_CAPTURE | LV_CAP_STREAMING
        #expect(V4L2Parsing.capability(cap).canCapture)
    }

    @Test func formatFlagsAreRead() {
        var desc = v4l2_fmtdesc()
        desc.pixelformat = LV_PIX_FMT_MJPEG
        desc.flags = LV_FMT_FLAG_COMPRESSED
        Self.setText(&desc.description, "Motion-JPEG")
        let mjpeg = V4L2Parsing.format(desc)
        #expect(mjpeg.fourcc == .mjpeg && mjpeg.description == "Motion-JPEG" && mjpeg.compressed && !mjpeg.emulated)
        desc.pixelformat = LV_PIX_FMT_RGB24
        desc.flags = LV_FMT_FLAG_EMULATED
        let rgb = V4L2Parsing.format(desc)
        #expect(rgb.fourcc == .rgb24 && rgb.emulated && !rgb.compressed)
        // A description filling all 32 bytes has no NUL: it must not run past the array.
        Self.setText(&desc.description, String(repeating: "x", count: 40))
        #expect(V4L2Parsing.format(desc).description.count == 31)
    }

    @Test func frameSizesAreDiscreteOrRanges() {
        var e = v4l2_frmsizeenum()
        e.type = LV_FRMSIZE_TYPE_DISCRETE
        e.discrete.width = 1280
        e.discrete.height = 720
        #expect(V4L2Parsing.frameSize(e) == .discrete(FrameSizeOption(width: 1280, height: 720)))
        e.type = LV_FRMSIZE_TYPE_STEPWISE
        e.stepwise = v4l2_frmsize_stepwise(min_width: 16, max_width: 1920, step_width: 16, min_height: 16, max_height: 1080, step_height: 8)
        #expect(V4L2Parsing.frameSize(e) == .range(SizeRange(minWidth: 16, maxWidth: 1920, stepWidth: 16, minHeight: 16, maxHeight: 1080, stepHeight: 8)))
        e.type = LV_FRMSIZE_TYPE_CONTINUOUS
        e.stepwise = v4l2_frmsize_stepwise(min_width: 2, max_width: 4096, step_width: 0, min_height: 2, max_height: 2160, step_height: 0)
        guard case .range(let range) = V4L2Parsing.frameSize(e) else { Issue.record("expected a range"); return }
        #expect(range.stepWidth == 1 && range.nearest(width: 333, height: 201) == (333, 201))
    }

    @Test func frameIntervalsAreDiscreteOrRanges() {
        var e = v4l2_frmivalenum()
        e.type = LV_FRMIVAL_TYPE_DISCRETE
        e.discrete = v4l2_fract(numerator: 1001, denominator: 30000)
        guard case .discrete(let ntsc) = V4L2Parsing.frameInterval(e) else { Issue.record("expected discrete"); return }
        #expect(abs(ntsc.framesPerSecond! - 29.97) < 0.001)
        e.type = LV_FRMIVAL_TYPE_CONTINUOUS
        e.stepwise = v4l2_frmival_stepwise(min: v4l2_fract(numerator: 1, denominator: 60),
                                           max: v4l2_fract(numerator: 1, denominator: 1),
                                           step: v4l2_fract(numerator: 1, denominator: 1))
        guard case .range(let range) = V4L2Parsing.frameInterval(e) else { Issue.record("expected a range"); return }
        let size = FrameSizeOption(width: 640, height: 480, intervalRange: range)
        #expect(size.maxFramesPerSecond == 60)
    }
}
