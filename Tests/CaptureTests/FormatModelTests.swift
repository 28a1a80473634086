import Capture
import Testing

@Suite struct FormatModelTests {
    @Test func fourccMatchesTheKernelsPacking() {
        // v4l2_fourcc('M','J','P','G') and v4l2_fourcc('Y','U','Y','V') from <linux/videodev2.h>.
        #expect(FourCC.mjpeg.rawValue == 0x4750_4A4D)
        #expect(FourCC.yuyv.rawValue == 0x5659_5559)
        #expect(FourCC(rawValue: 0x3342_4752).description == "RGB3")
        #expect(FourCC("MJPEG") == nil)
        #expect(FourCC("MJ") == nil)
        #expect(FourCC(rawValue: FourCC("Y16 ")!.rawValue | 0x8000_0000).description == "Y16 -BE")
    }

    @Test func frameIntervalsConvertToRates() {
        #expect(FrameInterval(framesPerSecond: 30) == FrameInterval(numerator: 1, denominator: 30))
        #expect(FrameInterval(framesPerSecond: 29.97).framesPerSecond! == 29.97)
        #expect(FrameInterval(numerator: 2, denominator: 25).framesPerSecond == 12.5)
        #expect(FrameInterval(numerator: 0, denominator: 0).framesPerSecond == nil)
    }

    @Test func capabilityBitsHaveNames() {
        // vivid's webcam node as QUERYCAP reports it.
        #expect(CapabilityNames.names(0x0520_0005) == ["video-capture", "video-overlay", "ext-pix-format", "readwrite", "streaming"])
        #expect(CapabilityNames.names(0x0000_0008) == ["0x8"])
        #expect(CapabilityNames.version(0x0006_0107) == "6.1.7")
    }

    @Test func sizeRangesSnapToTheirSteps() {
        let range = SizeRange(minWidth: 16, maxWidth: 1920, stepWidth: 16, minHeight: 16, maxHeight: 1080, stepHeight: 8)
        #expect(range.nearest(width: 641, height: 479) == (640, 480))
        #expect(range.nearest(width: 4000, height: 1) == (1920, 16))
    }

    @Test func frameSizeOptionKnowsItsTopRate() {
        let option = FrameSizeOption(width: 640, height: 480, intervals: [
            FrameInterval(numerator: 1, denominator: 5), FrameInterval(numerator: 1, denominator: 25),
        ])
        #expect(option.maxFramesPerSecond == 25)
        #expect(FrameSizeOption(width: 1, height: 1).maxFramesPerSecond == nil)
    }

    @Test func deviceDescriptionEncodesFourccsAsText() throws {
        let format = FormatDescription(fourcc: .mjpeg, description: "Motion-JPEG", compressed: true,
                                       sizes: [FrameSizeOption(width: 640, height: 480, intervals: [FrameInterval(numerator: 1, denominator: 30)])])
        let json = String(decoding: try JSONEncoderShim.encode(format), as: UTF8.self)
        #expect(json.contains("\"fourcc\":\"MJPG\""))
    }

    @Test func controlKeysFollowV4L2Ctl() {
        #expect(V4L2ControlPanel.key(for: "Percentage of Dropped Buffers") == "percentage_of_dropped_buffers")
        #expect(V4L2ControlPanel.key(for: "White Balance, Automatic") == "white_balance_automatic")
        #expect(V4L2ControlPanel.key(for: "disconnect") == "disconnect")
    }
}
