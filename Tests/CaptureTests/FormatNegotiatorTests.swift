import Capture
import Testing

@Suite struct FormatNegotiatorTests {
    static func sizes(_ list: [(Int, Int, [Double])]) -> [FrameSizeOption] {
        list.map { w, h, rates in
            FrameSizeOption(width: w, height: h, intervals: rates.map { FrameInterval(framesPerSecond: $0) })
        }
    }

    /// A typical UVC webcam: MJPEG at 30 fps up to 1080p, YUYV at full rate only at 640x480.
    static let uvc: [FormatDescription] = [
        FormatDescription(fourcc: .yuyv, description: "YUYV 4:2:2", sizes: sizes([(640, 480, [30, 15]), (1280, 720, [10, 5])])),
        FormatDescription(fourcc: .mjpeg, description: "Motion-JPEG", compressed: true,
                          sizes: sizes([(640, 480, [30]), (1280, 720, [30]), (1920, 1080, [30])])),
        FormatDescription(fourcc: .rgb24, description: "RGB3", emulated: true, sizes: sizes([(640, 480, [30, 15]), (1280, 720, [10, 5])])),
    ]

    @Test func prefersMJPEGWhenBothFit() throws {
        let choice = try FormatNegotiator.choose(CaptureRequest(width: 640, height: 480, framesPerSecond: 30), from: Self.uvc, path: "cam")
        #expect(choice.fourcc == .mjpeg)
        #expect(choice.width == 640 && choice.height == 480)
        #expect(choice.emulated == false)
    }

    @Test func prefersTheFormatThatReachesTheRate() throws {
        let request = CaptureRequest(width: 1280, height: 720, framesPerSecond: 30, format: nil)
        var formats = Self.uvc
        formats.swapAt(0, 1)
        #expect(try FormatNegotiator.choose(request, from: formats, path: "cam").fourcc == .mjpeg)
    }

    @Test func fallsBackToYUYVThenToLibv4l2Conversion() throws {
        let noMJPEG = Self.uvc.filter { $0.fourcc != .mjpeg }
        let choice = try FormatNegotiator.choose(CaptureRequest(), from: noMJPEG, path: "cam")
        #expect(choice.fourcc == .yuyv)
        // Only a format we cannot decode natively: take libv4l2's RGB24.
        let bayer = [
            FormatDescription(fourcc: FourCC("BA81")!, description: "Bayer", sizes: Self.sizes([(640, 480, [30])])),
            FormatDescription(fourcc: .rgb24, description: "RGB3", emulated: true, sizes: Self.sizes([(640, 480, [30])])),
        ]
        let converted = try FormatNegotiator.choose(CaptureRequest(), from: bayer, path: "cam")
        #expect(converted.fourcc == .rgb24 && converted.emulated)
    }

    @Test func takesTheNearestSizeOnOffer() throws {
        let choice = try FormatNegotiator.choose(CaptureRequest(width: 1200, height: 700, framesPerSecond: 30), from: Self.uvc, path: "cam")
        #expect(choice.fourcc == .mjpeg && choice.width == 1280 && choice.height == 720)
        let stepwise = [FormatDescription(fourcc: .yuyv, description: "YUYV",
                                          sizeRange: SizeRange(minWidth: 2, maxWidth: 4096, stepWidth: 2, minHeight: 2, maxHeight: 2160, stepHeight: 2))]
        let s = try FormatNegotiator.choose(CaptureRequest(width: 333, height: 201), from: stepwise, path: "cam")
        #expect(s.width == 334 && s.height == 202)
    }

    @Test func explicitFormatIsHonouredOrRefused() throws {
        let yuyv = try FormatNegotiator.choose(CaptureRequest(format: .yuyv), from: Self.uvc, path: "cam")
        #expect(yuyv.fourcc == .yuyv)
        let vividLike = [FormatDescription(fourcc: .yuyv, description: "YUYV", sizes: Self.sizes([(640, 480, [25])]))]
        #expect(throws: CaptureError.unsupportedFormat(path: "/dev/video0", requested: "MJPG", available: ["YUYV"])) {
            try FormatNegotiator.choose(CaptureRequest(format: .mjpeg), from: vividLike, path: "/dev/video0")
        }
    }

    @Test func nothingDecodableIsAClearError() {
        let onlyH264 = [FormatDescription(fourcc: FourCC("H264")!, description: "H.264", compressed: true)]
        #expect(throws: CaptureError.self) { try FormatNegotiator.choose(CaptureRequest(), from: onlyH264, path: "cam") }
        do {
            _ = try FormatNegotiator.choose(CaptureRequest(), from: onlyH264, path: "cam")
        } catch {
            #expect(error.description.contains("H264"))
        }
    }

    @Test func driversWithoutSizeEnumerationGetTheRequest() throws {
        let bare = [FormatDescription(fourcc: .mjpeg, description: "MJPEG")]
        let c = try FormatNegotiator.choose(CaptureRequest(width: 800, height: 600), from: bare, path: "cam")
        #expect(c.width == 800 && c.height == 600 && c.maxFramesPerSecond == nil)
    }
}
