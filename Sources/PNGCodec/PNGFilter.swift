/// PNG's five per-row prediction filters (PNG spec section 9), reversed.
enum PNGFilter {
    static func unfilter(_ type: UInt8, raw: [UInt8], from start: Int, into row: inout [UInt8], previous: [UInt8],
                         bytesPerPixel bpp: Int) throws {
        let n = row.count
        switch type {
        case 0: for i in 0..<n { row[i] = raw[start + i] }
        case 1: for i in 0..<n { row[i] = raw[start + i] &+ (i >= bpp ? row[i - bpp] : 0) }
        case 2: for i in 0..<n { row[i] = raw[start + i] &+ previous[i] }
        case 3:
            for i in 0..<n {
                let left = i >= bpp ? Int(row[i - bpp]) : 0
                row[i] = raw[start + i] &+ UInt8((left + Int(previous[i])) / 2)
            }
        case 4:
            for i in 0..<n {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                row[i] = raw[start + i] &+ UInt8(predictor)
            }
        default: throw PNGDecodingError("unknown row filter type \(type)")
        }
    }
}

/// One pixel of an unfiltered PNG row converted to RGBA8.
enum PNGPixel {
    /// Sample `index` of `depth` bits from a packed row (big-endian bit order; 16-bit samples as a 16-bit value).
    @inline(__always) static func sample(_ row: [UInt8], _ index: Int, _ depth: Int) -> Int {
        switch depth {
        case 8: return Int(row[index])
        case 16: return Int(row[2 * index]) << 8 | Int(row[2 * index + 1])
        default:
            let bit = index * depth
            let byte = Int(row[bit >> 3])
            return (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)
        }
    }

    static func convert(row: [UInt8], x: Int, depth: Int, colour: Int, palette: [UInt8], transparency: [UInt8],
                        into out: inout [UInt8], at o: Int) {
        let maxValue = (1 << depth) - 1
        func to8(_ v: Int) -> UInt8 { depth == 16 ? UInt8(v >> 8) : UInt8(v * 255 / maxValue) }
        func key(_ i: Int) -> Int { 2 * i + 1 < transparency.count ? Int(transparency[2 * i]) << 8 | Int(transparency[2 * i + 1]) : -1 }
        switch colour {
        case 0:
            let g = sample(row, x, depth)
            let v = to8(g)
            out[o] = v; out[o + 1] = v; out[o + 2] = v
            out[o + 3] = g == key(0) ? 0 : 255
        case 2:
            let r = sample(row, 3 * x, depth), g = sample(row, 3 * x + 1, depth), b = sample(row, 3 * x + 2, depth)
            out[o] = to8(r); out[o + 1] = to8(g); out[o + 2] = to8(b)
            out[o + 3] = (r == key(0) && g == key(1) && b == key(2)) ? 0 : 255
        case 3:
            let i = sample(row, x, depth)
            if 3 * i + 2 < palette.count {
                out[o] = palette[3 * i]; out[o + 1] = palette[3 * i + 1]; out[o + 2] = palette[3 * i + 2]
            } else {
                out[o] = 0; out[o + 1] = 0; out[o + 2] = 0
            }
            out[o + 3] = i < transparency.count ? transparency[i] : 255
        case 4:
            let v = to8(sample(row, 2 * x, depth))
            out[o] = v; out[o + 1] = v; out[o + 2] = v; out[o + 3] = to8(sample(row, 2 * x + 1, depth))
        default:
            out[o] = to8(sample(row, 4 * x, depth)); out[o + 1] = to8(sample(row, 4 * x + 1, depth))
            out[o + 2] = to8(sample(row, 4 * x + 2, depth)); out[o + 3] = to8(sample(row, 4 * x + 3, depth))
        }
    }
}
