import Foundation
import Imaging
import PNGCodec
import Testing

@Suite struct PNGTests {
    /// Bitwise reference CRC-32 (ISO-HDLC), independent of the encoder's table version.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0 ..< 8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt64 = 1, b: UInt64 = 0
        for v in bytes { a = (a + UInt64(v)) % 65521; b = (b + a) % 65521 }
        return UInt32(b << 16 | a)
    }

    @Test func referenceChecksum() throws {
        #expect(Self.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        // IEND's CRC is the same in every PNG.
        let png = try LibPNGEncoder.encode(GrayImage(width: 1, height: 1))
        #expect(Array(png.suffix(4)) == [0xAE, 0x42, 0x60, 0x82])
    }

    /// Walks the chunks of a PNG, checking each CRC; returns the chunk types in order.
    func chunkTypes(_ png: [UInt8]) -> [String]? {
        guard png.count > 8, Array(png[0 ..< 8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        var i = 8, types: [String] = []
        while i + 12 <= png.count {
            let len = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            guard i + 12 + len <= png.count else { return nil }
            let typeAndData = Array(png[i + 4 ..< i + 8 + len])
            let stored = UInt32(png[i + 8 + len]) << 24 | UInt32(png[i + 9 + len]) << 16
                | UInt32(png[i + 10 + len]) << 8 | UInt32(png[i + 11 + len])
            guard Self.crc32(typeAndData) == stored else { return nil }
            types.append(String(decoding: typeAndData[0 ..< 4], as: UTF8.self))
            i += 12 + len
        }
        return i == png.count ? types : nil
    }

    @Test func chunkStructureAndCRCs() throws {
        let png = try LibPNGEncoder.encode(GrayImage(width: 7, height: 3, fill: 9))
        #expect(chunkTypes(png) == ["IHDR", "IDAT", "IEND"])
        var broken = png
        broken[20] ^= 1   // inside IHDR data
        #expect(chunkTypes(broken) == nil)
    }

    func samples() -> (GrayImage, RGBImage, RGBAImage) {
        var rng = TestRandom(seed: 42)
        // Mix of smooth, repetitive and noisy content so filters and LZ77 matches all get used.
        var gray = GrayImage(width: 97, height: 61)
        for y in 0 ..< 61 { for x in 0 ..< 97 { gray[x, y] = y < 20 ? UInt8((x * 3 + y) & 255) : (y < 40 ? UInt8(x % 7 * 30) : rng.byte()) } }
        var rgb = RGBImage(width: 130, height: 47)
        for y in 0 ..< 47 { for x in 0 ..< 130 { rgb[x, y] = x < 65 ? (UInt8(x * 2), UInt8(y * 5), 77) : (rng.byte(), rng.byte(), UInt8(x & 1) * 255) } }
        rgb.drawText("PNG test", atX: 3, y: 3, color: .yellow, scale: 2)
        var rgba = RGBAImage(width: 33, height: 300)
        for y in 0 ..< 300 { for x in 0 ..< 33 { rgba[x, y] = (UInt8(x * 7), rng.byte(), UInt8(y & 255), UInt8((x + y) & 255)) } }
        return (gray, rgb, rgba)
    }

    func decodeWithFFmpeg(_ png: [UInt8], pixelFormat: String) throws -> [UInt8] {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/t.png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        let (status, out) = try Tools.run(Tools.ffmpeg!, ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo",
                                                          "-pix_fmt", pixelFormat, "-"])
        #expect(status == 0, "ffmpeg failed to decode the PNG")
        return out
    }

    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg not installed: PNG decode check skipped"))
    func ffmpegDecodesExactPixels() throws {
        let (gray, rgb, rgba) = samples()
        #expect(try decodeWithFFmpeg(try LibPNGEncoder.encode(gray), pixelFormat: "gray") == gray.pixels)
        #expect(try decodeWithFFmpeg(try LibPNGEncoder.encode(rgb), pixelFormat: "rgb24") == rgb.pixels)
        #expect(try decodeWithFFmpeg(try LibPNGEncoder.encode(rgba), pixelFormat: "rgba") == rgba.pixels)
        // Long runs exercise maximal (258) matches and far distances.
        let flat = GrayImage(width: 1000, height: 40, fill: 200)
        #expect(try decodeWithFFmpeg(try LibPNGEncoder.encode(flat), pixelFormat: "gray") == flat.pixels)
    }

    @Test func compressesRedundantData() throws {
        let flat = try LibPNGEncoder.encode(RGBImage(width: 640, height: 480, fill: (10, 20, 30)))
        #expect(flat.count < 640 * 480 * 3 / 50)
    }

    @Test func writesFilesByExtension() throws {
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (gray, rgb, rgba) = samples()
        try ImageFiles.write(rgb, to: dir + "/a.png")
        try ImageFiles.write(rgba, to: dir + "/b.png")
        try ImageFiles.write(gray, to: dir + "/c.pgm")
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png")))
        #expect(try png == LibPNGEncoder.encode(rgb))
        #expect(try ImageFiles.readNetPBM(dir + "/c.pgm") == .gray(gray))
        #expect(throws: ImageFileError.self) { try ImageFiles.write(gray, to: dir + "/x.bmp") }
        #expect(throws: ImageFileError.self) { try ImageFiles.write(rgba, to: dir + "/x.ppm") }
        #expect(throws: ImageFileError.self) { try ImageFiles.readNetPBM(dir + "/missing.pgm") }
        #expect(throws: ImageFileError.self) { try ImageFiles.write(GrayImage(width: 0, height: 4), to: dir + "/e.png") }
        try ImageFiles.write(rgb, to: dir + "/d.ppm")
        #expect(try ImageFiles.readNetPBM(dir + "/d.ppm") == .rgb(rgb))
        try Data("P6 2 2 255\n123".utf8).write(to: URL(fileURLWithPath: dir + "/bad.ppm"))
        #expect(throws: ImageFileError.self) { try ImageFiles.readNetPBM(dir + "/bad.ppm") }
    }
}
