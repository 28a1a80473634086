import Capture
import Imaging
import Testing
@testable import VirtualCamera

@Suite struct YUVPackingTests {
    /// A smooth colour ramp: 2x1 and 2x2 chroma averaging changes it little.
    static func ramp(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = 3 * (y * width + x)
                image.pixels[i] = UInt8(20 + (200 * x) / width)
                image.pixels[i + 1] = UInt8(30 + (180 * y) / height)
                image.pixels[i + 2] = UInt8(220 - (150 * (x + y)) / (width + height))
            }
        }
        return image
    }

    @Test func yuyvRoundTripsThroughTheCaptureConverter() {
        let image = Self.ramp(width: 64, height: 32)
        var packed: [UInt8] = []
        YUVPacking.yuyv(image, into: &packed)
        #expect(packed.count == 2 * 64 * 32)
        var back = RGBImage(width: 1, height: 1)
        packed.withUnsafeBytes { YUYVConverter.convert($0, width: 64, height: 32, bytesPerLine: 128, into: &back) }
        let worst = zip(image.pixels, back.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 4, "largest channel error \(worst)")
    }

    @Test func limitedRangeEndpoints() {
        var black = RGBImage(width: 2, height: 2), white = RGBImage(width: 2, height: 2, fill: (255, 255, 255))
        var out: [UInt8] = []
        YUVPacking.yuyv(black, into: &out)
        #expect(out == [16, 128, 16, 128, 16, 128, 16, 128])
        YUVPacking.i420(white, into: &out)
        #expect(out == [235, 235, 235, 235, 128, 128])
        black.pixels = [255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0]
        YUVPacking.i420(black, into: &out)
        // BT.601 red: Y' 82, Cb 90, Cr 240.
        #expect(out == [82, 82, 82, 82, 90, 240])
        _ = white
    }

    @Test func i420PlanesAverageEachTwoByTwoBlock() {
        let image = Self.ramp(width: 8, height: 6)
        var out: [UInt8] = []
        YUVPacking.i420(image, into: &out)
        #expect(out.count == 8 * 6 + 2 * 4 * 3)
        var yuyv: [UInt8] = []
        YUVPacking.yuyv(image, into: &yuyv)
        // The luma planes agree; each I420 chroma sample lies between the two YUYV rows it merges.
        for y in 0..<6 { for x in 0..<8 { #expect(out[y * 8 + x] == yuyv[2 * (y * 8 + x)]) } }
        for cy in 0..<3 {
            for cx in 0..<4 {
                let u = Int(out[48 + cy * 4 + cx]), top = Int(yuyv[(2 * cy) * 16 + 4 * cx + 1]), bottom = Int(yuyv[(2 * cy + 1) * 16 + 4 * cx + 1])
                #expect(u >= min(top, bottom) - 1 && u <= max(top, bottom) + 1)
            }
        }
    }
}
