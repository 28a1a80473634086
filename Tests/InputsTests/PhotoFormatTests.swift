import Foundation
import Imaging
import Inputs
import Media
import Testing

/// Every photo kind the engine promises to read, made by ImageMagick from one reference picture and
/// read back by `PhotoDecoder`: the same picture (exactly for lossless formats, closely for JPEG).
@Suite(.enabled(if: Tools.convert != nil, "ImageMagick (convert) not installed: photo format tests skipped"))
struct PhotoFormatTests {
    /// Smooth gradients and a few hard edges, so chroma subsampling and rotation errors both show.
    static func reference(width: Int = 96, height: Int = 64) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let edge: UInt8 = (x / 24 + y / 16) % 2 == 0 ? 40 : 0
                image[x, y] = (UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8(128) + edge)
            }
        }
        return image
    }

    static func meanAbsoluteDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var sum = 0
        for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }

    /// `convert reference.ppm ARGS... out` and the decoded result.
    func converted(_ arguments: [String], to name: String, in dir: String) throws -> RGBImage {
        let source = dir + "/reference.ppm"
        if !FileManager.default.fileExists(atPath: source) {
            try Data(NetPBM.encode(Self.reference())).write(to: URL(fileURLWithPath: source))
        }
        // ImageMagick takes a format prefix ("PNG8:") only at the start of the whole path.
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        let out = dir + "/" + parts.last!
        let target = parts.count == 2 ? parts[0] + ":" + out : out
        let (status, _) = try Tools.run(Tools.convert!, [source] + arguments + [target])
        try #require(status == 0, "convert \(arguments) \(name) failed")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        return try PhotoDecoder().decodeRGB(bytes)
    }

    @Test func jpegVariants() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let reference = Self.reference()
        let cases: [(String, [String], Double)] = [
            ("baseline420.jpg", ["-quality", "95", "-sampling-factor", "4:2:0"], 4),
            ("baseline422.jpg", ["-quality", "95", "-sampling-factor", "4:2:2"], 4),
            ("baseline444.jpg", ["-quality", "95", "-sampling-factor", "4:4:4"], 3),
            ("progressive.jpg", ["-quality", "95", "-interlace", "JPEG"], 4),
            ("cmyk.jpg", ["-colorspace", "CMYK", "-quality", "95"], 6),
        ]
        for (name, arguments, tolerance) in cases {
            let decoded = try converted(arguments, to: name, in: dir)
            let error = Self.meanAbsoluteDifference(decoded, reference)
            #expect(error < tolerance, "\(name): mean error \(error)")
        }
        let gray = try converted(["-colorspace", "Gray", "-quality", "95"], to: "gray.jpg", in: dir)
        #expect(gray.width == 96 && gray.height == 64)
        #expect(gray[10, 10].r == gray[10, 10].g && gray[10, 10].g == gray[10, 10].b)
        let luma = GrayImage(luma: reference)
        #expect(abs(Int(gray[50, 30].r) - Int(luma[50, 30])) < 8)
    }

    @Test func pngVariants() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let reference = Self.reference()
        for (name, arguments) in [("rgb8.png", ["-depth", "8"]), ("interlaced.png", ["-interlace", "PNG"]),
                                  ("rgb16.png", ["-depth", "16"]), ("rgba.png", ["-alpha", "opaque", "PNG32:"])] {
            let args = arguments.last == "PNG32:" ? Array(arguments.dropLast()) : arguments
            let out = arguments.last == "PNG32:" ? "PNG32:" + name : name
            let decoded = try converted(args, to: out, in: dir)
            #expect(Self.meanAbsoluteDifference(decoded, reference) < 0.6, "\(name)")
        }
        // Palette: PNG8 quantises to 256 colours with dithering, so compare with ImageMagick's own reading.
        let palette = try converted([], to: "PNG8:palette.png", in: dir)
        let (status, pixels) = try Tools.run(Tools.convert!, [dir + "/palette.png", "-depth", "8", "rgb:-"])
        #expect(status == 0 && palette.pixels == pixels)
        let gray = try converted(["-colorspace", "Gray"], to: "PNG:gray.png", in: dir)
        let luma = GrayImage(luma: reference)
        #expect(abs(Int(gray[50, 30].r) - Int(luma[50, 30])) < 4)
        let gray16 = try converted(["-colorspace", "Gray", "-depth", "16"], to: "gray16.png", in: dir)
        #expect(abs(Int(gray16[50, 30].r) - Int(luma[50, 30])) < 4)
        // Transparent pixels are flattened over white.
        let transparent = try converted(["-alpha", "set", "-channel", "A", "-evaluate", "set", "0", "+channel"], to: "PNG32:transparent.png", in: dir)
        #expect(transparent[5, 5] == (255, 255, 255))
        let grayAlpha = try converted(["-colorspace", "Gray", "-alpha", "set", "-channel", "A", "-evaluate", "set", "0", "+channel"], to: "graya.png", in: dir)
        #expect(grayAlpha[5, 5] == (255, 255, 255))
    }

    @Test func netpbmVariants() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Self.meanAbsoluteDifference(try converted([], to: "a.ppm", in: dir), Self.reference()) == 0)
        #expect(Self.meanAbsoluteDifference(try converted(["-compress", "none"], to: "ascii.ppm", in: dir), Self.reference()) == 0)
        let gray = try converted(["-colorspace", "Gray"], to: "a.pgm", in: dir)
        #expect(gray.width == 96)
    }

    /// The format comes from the content: a PNG named .jpg is read as a PNG, and anything else is one line
    /// naming the formats accepted.
    @Test func formatByContentNotName() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let decoded = try converted([], to: "PNG:misnamed.jpg", in: dir)
        #expect(Self.meanAbsoluteDifference(decoded, Self.reference()) < 0.6)
        let text = Array("hello, not an image".utf8)
        #expect { try PhotoDecoder().decodeRGB(text) } throws: { "\($0)".contains("JPEG, PNG, PGM/PPM") }
    }
}

extension PhotoFormatTests {
    /// GIF is not read: `converted` would throw, so check it here.
    @Test func gifIsRefusedWithTheAcceptedFormats() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(NetPBM.encode(Self.reference())).write(to: URL(fileURLWithPath: dir + "/r.ppm"))
        let (status, _) = try Tools.run(Tools.convert!, [dir + "/r.ppm", dir + "/a.gif"])
        try #require(status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.gif")))
        #expect { try PhotoDecoder().decodeRGB(bytes) } throws: { "\($0)".contains("accepted: JPEG, PNG, PGM/PPM") }
    }
}
