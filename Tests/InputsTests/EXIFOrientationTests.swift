import Foundation
import Imaging
import Inputs
import JPEGCodec
import Media
import Testing

/// Phone photos are stored sideways with an EXIF Orientation tag: the decoder must return the image a
/// viewer shows. The tag is written here by hand in both TIFF byte orders (and checked against
/// ImageMagick's -auto-orient where it is installed).
struct EXIFOrientationTests {
    /// A JPEG with an APP1 Exif segment holding only IFD0 with the Orientation tag.
    static func withOrientation(_ jpeg: [UInt8], _ value: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 255), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 255)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            + u16(2)                                              // two entries
            + u16(0x010F) + u16(2) + u32(4) + Array("Ph\0\0".utf8)  // Make, ASCII, inline
            + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) // Orientation, SHORT
            + u32(0)
        let body: [UInt8] = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
        return [0xFF, 0xD8] + segment + jpeg.dropFirst(2)
    }

    /// A picture with no symmetry: which corner is which is visible after any turn.
    static func stored() -> RGBImage {
        var image = RGBImage(width: 48, height: 32, fill: (0, 0, 0))
        for y in 0 ..< 32 { for x in 0 ..< 48 { image[x, y] = (UInt8(x * 5), UInt8(y * 7), x < 12 && y < 8 ? 255 : 0) } }
        return image
    }

    @Test func everyOrientationInBothByteOrders() throws {
        let encoded = try TurboJPEGEncoder().encode(Self.stored(), quality: 100)
        let plain = try TurboJPEGDecoder().decodeRGB(encoded)
        for value in 1 ... 8 {
            let orientation = ImageOrientation(rawValue: value)!
            for little in [true, false] {
                let tagged = Self.withOrientation(encoded, value, littleEndian: little)
                #expect(EXIFOrientation.read(jpeg: tagged) == orientation)
                let upright = try PhotoDecoder().decodeRGB(tagged)
                #expect(upright == plain.upright(orientation), "orientation \(value)")
                let size = try PhotoDecoder().uprightSize(of: tagged)
                #expect(size.width == upright.width && size.height == upright.height)
            }
        }
    }

    /// The eight turns, spelled out on a 3x2 image: what a viewer shows for each tag.
    @Test func turnsMatchTheEXIFDefinition() {
        let stored = GrayImage(width: 3, height: 2, pixels: [1, 2, 3,
                                                              4, 5, 6])
        #expect(stored.upright(.upright).pixels == [1, 2, 3, 4, 5, 6])
        #expect(stored.upright(.mirrored).pixels == [3, 2, 1, 6, 5, 4])
        #expect(stored.upright(.upsideDown).pixels == [6, 5, 4, 3, 2, 1])
        #expect(stored.upright(.upsideDownMirrored).pixels == [4, 5, 6, 1, 2, 3])
        #expect(stored.upright(.transposed).pixels == [1, 4, 2, 5, 3, 6])
        let clockwise = stored.upright(.rotatedClockwise)
        #expect(clockwise.width == 2 && clockwise.height == 3 && clockwise.pixels == [4, 1, 5, 2, 6, 3])
        #expect(stored.upright(.transverse).pixels == [6, 3, 5, 2, 4, 1])
        #expect(stored.upright(.rotatedCounterclockwise).pixels == [3, 6, 2, 5, 1, 4])
    }

    @Test func damagedOrMissingTagsReadAsUpright() throws {
        let encoded = try TurboJPEGEncoder().encode(Self.stored(), quality: 90)
        #expect(EXIFOrientation.read(jpeg: encoded) == .upright)
        let tagged = Self.withOrientation(encoded, 6, littleEndian: true)
        for cut in stride(from: 4, to: 60, by: 3) {
            _ = EXIFOrientation.read(jpeg: Array(tagged.prefix(cut)))   // must not trap
        }
        #expect(EXIFOrientation.read(jpeg: Self.withOrientation(encoded, 9, littleEndian: false)) == .upright)
        #expect(EXIFOrientation.read(jpeg: Self.withOrientation(encoded, 0, littleEndian: true)) == .upright)
    }

    @Test(.enabled(if: Tools.convert != nil, "ImageMagick not installed"))
    func agreesWithImageMagickAutoOrient() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let encoded = try TurboJPEGEncoder().encode(Self.stored(), quality: 100)
        for value in [3, 6, 8] {
            let path = dir + "/o\(value).jpg"
            try Data(Self.withOrientation(encoded, value, littleEndian: value != 6)).write(to: URL(fileURLWithPath: path))
            let (status, out) = try Tools.run(Tools.convert!, [path, "-auto-orient", "-depth", "8", "rgb:-"])
            try #require(status == 0)
            let ours = try PhotoDecoder().decodeRGB([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(out.count == ours.pixels.count)
            var worst = 0
            for i in 0 ..< min(out.count, ours.pixels.count) { worst = max(worst, abs(Int(out[i]) - Int(ours.pixels[i]))) }
            #expect(worst <= 8, "orientation \(value): worst channel difference \(worst)")
        }
    }
}
