import Imaging
import Meshes

/// A PNG decoder (ISO/IEC 15948, PNG 2nd edition) over the system zlib: every colour type
/// (gray, RGB, palette, gray+alpha, RGBA), bit depths 1-16 (16-bit samples keep their high byte),
/// `tRNS` transparency, and Adam7 interlacing. Output is straight-alpha RGBA8. Damaged files throw a
/// `PNGDecodingError` naming the defect; chunk CRCs are not verified (zlib's Adler-32 still guards
/// the image data).
public final class ZlibPNGDecoder: PNGDecoding {
    /// Refuses images above this many pixels, so a forged header cannot demand gigabytes.
    public var maximumPixels = 64 * 1024 * 1024

    public init() {}

    public func decodePNG(_ bytes: [UInt8]) throws -> RGBAImage {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw PNGDecodingError("not a PNG file (bad signature)") }
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        var offset = 8
        var header: (width: Int, height: Int, depth: Int, colour: Int, interlaced: Bool)?
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var data: [UInt8] = []
        var ended = false
        while offset + 12 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length <= bytes.count - start - 4 else { throw PNGDecodingError("chunk \(type) runs past the end of the file (truncated)") }
            let body = bytes[start..<start + length]
            switch type {
            case "IHDR":
                guard length == 13 else { throw PNGDecodingError("IHDR has \(length) bytes, not 13") }
                let w = u32(start), h = u32(start + 4)
                let depth = Int(bytes[start + 8]), colour = Int(bytes[start + 9])
                guard w > 0 && h > 0 else { throw PNGDecodingError("image size \(w)x\(h) is empty") }
                guard w * h <= maximumPixels else { throw PNGDecodingError("image \(w)x\(h) is larger than \(maximumPixels) pixels") }
                let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                guard let depths = allowed[colour], depths.contains(depth) else {
                    throw PNGDecodingError("invalid colour type \(colour) with bit depth \(depth)")
                }
                guard bytes[start + 10] == 0, bytes[start + 11] == 0, bytes[start + 12] <= 1 else {
                    throw PNGDecodingError("unknown compression, filter or interlace method")
                }
                header = (w, h, depth, colour, bytes[start + 12] == 1)
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "IDAT": data.append(contentsOf: body)
            case "IEND": ended = true
            default: break
            }
            if ended { break }
            offset = start + length + 4
        }
        guard let h = header else { throw PNGDecodingError("no IHDR chunk") }
        guard !data.isEmpty else { throw PNGDecodingError("no image data (IDAT)") }
        if h.colour == 3 && palette.isEmpty { throw PNGDecodingError("palette image without PLTE") }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][h.colour]!
        let bitsPerPixel = channels * h.depth
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = h.interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var expected = 0
        for p in passes {
            let pw = (h.width - p.x0 + p.dx - 1) / p.dx, ph = (h.height - p.y0 + p.dy - 1) / p.dy
            if pw > 0 && ph > 0 { expected += ph * (1 + (pw * bitsPerPixel + 7) / 8) }
        }
        let raw: [UInt8]
        do { raw = try ZlibInflater.inflate(data, expectedLength: expected) } catch {
            switch error {
            case .corrupt: throw PNGDecodingError("corrupt compressed image data")
            case .tooLarge: throw PNGDecodingError("image data is longer than the header's size implies")
            case .truncated: throw PNGDecodingError("image data ends early (truncated)")
            }
        }
        guard raw.count == expected else { throw PNGDecodingError("image data has \(raw.count) bytes, expected \(expected) (truncated)") }

        var out = [UInt8](repeating: 255, count: 4 * h.width * h.height)
        var rawOffset = 0
        let bytesPerPixel = max(1, bitsPerPixel / 8)
        for p in passes {
            let pw = (h.width - p.x0 + p.dx - 1) / p.dx, ph = (h.height - p.y0 + p.dy - 1) / p.dy
            guard pw > 0 && ph > 0 else { continue }
            let rowBytes = (pw * bitsPerPixel + 7) / 8
            var previous = [UInt8](repeating: 0, count: rowBytes)
            var row = [UInt8](repeating: 0, count: rowBytes)
            for y in 0..<ph {
                let filter = raw[rawOffset]
                try PNGFilter.unfilter(filter, raw: raw, from: rawOffset + 1, into: &row, previous: previous, bytesPerPixel: bytesPerPixel)
                rawOffset += 1 + rowBytes
                let outY = p.y0 + y * p.dy
                for x in 0..<pw {
                    let o = 4 * (outY * h.width + p.x0 + x * p.dx)
                    PNGPixel.convert(row: row, x: x, depth: h.depth, colour: h.colour, palette: palette,
                                     transparency: transparency, into: &out, at: o)
                }
                swap(&row, &previous)
            }
        }
        return RGBAImage(width: h.width, height: h.height, pixels: out)
    }
}

/// Why a PNG could not be decoded.
public struct PNGDecodingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = "PNG: " + description }
}
