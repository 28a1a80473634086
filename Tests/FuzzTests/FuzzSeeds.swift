import Foundation
import Imaging
import JPEGCodec
import Media
import ModelFormat
import PNGCodec

/// Small valid inputs of every format, made here so the harness needs no data outside the
/// repository, with the offsets of the header fields each format's forgeries aim at.
enum FuzzSeeds {
    static func gradient(_ w: Int, _ h: Int) -> RGBImage {
        var image = RGBImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w { image.pixels.replaceSubrange((3 * (y * w + x))..<(3 * (y * w + x) + 3), with: [UInt8(x * 255 / w), UInt8(y * 255 / h), 128]) } }
        return image
    }

    static let jpegs: [[UInt8]] = {
        let encoder = TurboJPEGEncoder()
        var gray = GrayImage(width: 16, height: 16)
        for i in gray.pixels.indices { gray.pixels[i] = UInt8(i % 256) }
        return [try! encoder.encode(gradient(32, 24), quality: 80), try! encoder.encode(gradient(17, 9), quality: 30),
                try! encoder.encode(gray, quality: 90)]
    }()

    /// Marker length fields and the SOF's height and width.
    static func jpegFields(_ b: [UInt8]) -> [Int] {
        var fields: [Int] = [], p = 2
        while p + 4 <= b.count, b[p] == 0xFF {
            let marker = b[p + 1], length = Int(b[p + 2]) << 8 | Int(b[p + 3])
            fields.append(p + 2)
            if marker == 0xC0 || marker == 0xC2 { fields += [p + 5, p + 7] }
            if marker == 0xDA { break }
            p += 2 + length
        }
        return fields
    }

    static let pngs: [[UInt8]] = {
        var rgba = RGBAImage(width: 8, height: 6)
        for i in rgba.pixels.indices { rgba.pixels[i] = UInt8((i * 37) % 256) }
        return [try! LibPNGEncoder.encode(gradient(12, 10)), try! LibPNGEncoder.encode(rgba)]
    }()

    /// Every chunk's length field, and IHDR's width and height.
    static func pngFields(_ b: [UInt8]) -> [Int] {
        var fields = [16, 20], p = 8
        while p + 8 <= b.count {
            fields.append(p)
            let length = Int(b[p]) << 24 | Int(b[p + 1]) << 16 | Int(b[p + 2]) << 8 | Int(b[p + 3])
            p += 12 + length
        }
        return fields
    }

    /// The PNG with every chunk's CRC recomputed (PNG uses the same CRC-32 as model files).
    static func resealedPNG(_ b: [UInt8]) -> [UInt8] {
        var out = b, p = 8
        while p + 12 <= out.count {
            let length = Int(out[p]) << 24 | Int(out[p + 1]) << 16 | Int(out[p + 2]) << 8 | Int(out[p + 3])
            guard length <= out.count - p - 12 else { break }
            let crc = CRC32.checksum(out[(p + 4)..<(p + 8 + length)])
            for k in 0..<4 { out[p + 8 + length + k] = UInt8(truncatingIfNeeded: crc >> UInt32(24 - 8 * k)) }
            p += 12 + length
        }
        return out
    }

    static let netpbm: [String] = ["P2\n3 2\n255\n0 128 255\n1 2 3\n", "P3\n2 1\n15\n1 2 3 4 5 6\n"]

    /// Offsets after each RIFF FourCC this reader interprets: sizes, counts and header fields.
    static func aviFields(_ b: [UInt8]) -> [Int] {
        let tags = ["RIFF", "LIST", "avih", "strh", "strf", "indx", "ix00", "idx1", "movi", "00dc", "dmlh", "AVIX"].map { Array($0.utf8) }
        var fields: [Int] = []
        var p = 0
        while p + 4 <= b.count {
            if tags.contains(where: { $0[0] == b[p] && $0[1] == b[p + 1] && $0[2] == b[p + 2] && $0[3] == b[p + 3] }) {
                fields += stride(from: p + 4, to: min(b.count, p + 48), by: 4).map { $0 }
            }
            p += 1
        }
        return fields
    }

    static func avi(frames: Int, in directory: String) throws -> [UInt8] {
        let path = directory + "/seed.avi"
        let sink = try AVIFileSink(path: path, framesPerSecond: 25)
        for i in 0..<frames { try sink.write(jpeg: jpegs[0], timestampSeconds: Double(i) / 25) }
        try sink.finish()
        return [UInt8](FileManager.default.contents(atPath: path)!)
    }

    /// Recomputes a model file's trailing CRC-32, so mutations reach the parser behind the checksum
    /// (anyone can forge a checksum; the crashes all had a correct one).
    static func resealed(_ b: [UInt8]) -> [UInt8] {
        guard b.count >= 8 else { return b }
        var out = b
        let crc = CRC32.checksum(out[0..<(out.count - 4)])
        for k in 0..<4 { out[out.count - 4 + k] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * k)) }
        return out
    }

    /// Offsets of the counts, ranks, dimensions and int8 scales of a model file.
    static func archiveFields(_ b: [UInt8]) -> [Int] {
        var fields: [Int] = [], p = 16
        func u32(_ o: Int) -> Int { o + 4 <= b.count ? Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 : 0 }
        fields.append(p)
        for _ in 0..<u32(p) { p += 4; p += 4 + u32(p); p += u32(p); }
        p += 4
        fields.append(p)
        let tensors = u32(p)
        p += 4
        for _ in 0..<tensors {
            guard p + 4 <= b.count else { break }
            p += 4 + u32(p)
            guard p + 2 <= b.count else { break }
            let encoding = b[p], rank = Int(b[p + 1])
            fields += [p, p + 1]
            p += 2
            var count = 1
            var last = 1
            for _ in 0..<rank { fields.append(p); last = u32(p); count *= last; p += 4 }
            switch encoding {
            case 0: p += 4 * count
            case 1: p += 2 * count
            default:
                for _ in 0..<(last == 0 ? 0 : count / last) { fields.append(p); p += 4 + last }
            }
        }
        return fields
    }
}
