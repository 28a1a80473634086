import Imaging
import Meshes
import PNGCodec
import Testing

struct PNGDecoderTests {
    @Test func roundTripsOurEncoder() throws {
        var rgba = RGBAImage(width: 37, height: 11)
        for i in rgba.pixels.indices { rgba.pixels[i] = UInt8((i * 7919) % 251) }
        #expect(try LibPNGDecoder().decodePNG(try LibPNGEncoder.encode(rgba)) == rgba)
        var rgb = RGBImage(width: 5, height: 9)
        for i in rgb.pixels.indices { rgb.pixels[i] = UInt8((i * 31) % 256) }
        let decoded = try LibPNGDecoder().decodePNG(try LibPNGEncoder.encode(rgb))
        #expect(decoded.width == 5 && decoded[4, 8] == (rgb[4, 8].r, rgb[4, 8].g, rgb[4, 8].b, 255))
        var gray = GrayImage(width: 3, height: 2)
        gray.pixels = [0, 50, 100, 150, 200, 250]
        #expect(try LibPNGDecoder().decodePNG(try LibPNGEncoder.encode(gray))[2, 1] == (250, 250, 250, 255))
    }

    /// A 2-bit palette image with tRNS, built by hand with a stored (uncompressed) zlib block and real CRCs.
    @Test func palettedTwoBitWithTransparency() throws {
        func be(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func crc(_ bytes: [UInt8]) -> Int {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes { c ^= UInt32(b); for _ in 0 ..< 8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 } }
            return Int(~c)
        }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] { be(body.count) + Array(type.utf8) + body + be(crc(Array(type.utf8) + body)) }
        // 3x2 pixels, indices row 0: 0 1 2, row 1: 3 2 1 -> packed 2 bits each, filter byte 0.
        let raw: [UInt8] = [0, 0b00_01_10_00, 0, 0b11_10_01_00]
        var a = 1, b = 0
        for x in raw { a = (a + Int(x)) % 65521; b = (b + a) % 65521 }
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count), 0, ~UInt8(raw.count), 0xFF] + raw + be(b << 16 | a)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be(3) + be(2) + [2, 3, 0, 0, 0])
            + chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])
            + chunk("tRNS", [128])
            + chunk("IDAT", zlib) + chunk("IEND", [])
        let image = try LibPNGDecoder().decodePNG(png)
        #expect(image[0, 0] == (255, 0, 0, 128))
        #expect(image[1, 0] == (0, 255, 0, 255))
        #expect(image[2, 0] == (0, 0, 255, 255))
        #expect(image[0, 1] == (9, 9, 9, 255))
        #expect(image[2, 1] == (0, 255, 0, 255))
        // Damage: truncated data, bad signature.
        #expect(throws: PNGDecodingError.self) { try LibPNGDecoder().decodePNG(Array(png.prefix(png.count - 30))) }
        #expect(throws: PNGDecodingError.self) { try LibPNGDecoder().decodePNG([1, 2, 3]) }
        var corrupt = png
        corrupt[png.count - 22] ^= 0xFF
        #expect(throws: PNGDecodingError.self) { try LibPNGDecoder().decodePNG(corrupt) }
    }
}
