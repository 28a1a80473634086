/// Writes 8-bit PNG files (gray, RGB, RGBA; non-interlaced) for debugging output and overlays.
///
/// Each row gets the PNG filter (None, Sub, Up, Average, Paeth) with the smallest sum of absolute
/// residuals — the usual libpng heuristic — and the filtered stream is compressed with `Zlib`.
/// Chunk CRCs are CRC-32 over type and data as the PNG spec requires. The image must not be
/// empty (PNG has no zero-pixel images; `ImageFiles.write` reports that as an error instead).
public enum PNGEncoder {
    public static func encode(_ image: GrayImage) -> [UInt8] {
        encode(width: image.width, height: image.height, colorType: 0, channels: 1, pixels: image.pixels)
    }

    public static func encode(_ image: RGBImage) -> [UInt8] {
        encode(width: image.width, height: image.height, colorType: 2, channels: 3, pixels: image.pixels)
    }

    public static func encode(_ image: RGBAImage) -> [UInt8] {
        encode(width: image.width, height: image.height, colorType: 6, channels: 4, pixels: image.pixels)
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func encode(width: Int, height: Int, colorType: UInt8, channels: Int, pixels: [UInt8]) -> [UInt8] {
        precondition(width > 0 && height > 0, "PNG cannot hold an empty \(width)x\(height) image")
        var out = signature
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, colorType, 0, 0, 0]   // bit depth, colour type, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &out)
        appendChunk("IDAT", Zlib.compress(filtered(width: width, height: height, channels: channels, pixels: pixels)),
                    to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    /// Rows prefixed by their filter type byte, as IDAT wants them before compression.
    static func filtered(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8] {
        let rowBytes = width * channels
        var out = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var candidate = [UInt8](repeating: 0, count: rowBytes)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        pixels.withUnsafeBufferPointer { px in
        out.withUnsafeMutableBufferPointer { dst in
        candidate.withUnsafeMutableBufferPointer { cand in
        zeros.withUnsafeBufferPointer { zero in
            let bpp = channels
            for y in 0 ..< height {
                let cur = px.baseAddress! + y * rowBytes
                let up = y > 0 ? px.baseAddress! + (y - 1) * rowBytes : zero.baseAddress!
                let row = dst.baseAddress! + y * (rowBytes + 1)
                var bestCost = Int.max
                for filter in 0 ..< 5 {
                    var cost = 0
                    for i in 0 ..< rowBytes {
                        let a = i >= bpp ? Int(cur[i - bpp]) : 0
                        let b = Int(up[i])
                        let c = i >= bpp ? Int(up[i - bpp]) : 0
                        let predictor: Int
                        switch filter {
                        case 0: predictor = 0
                        case 1: predictor = a
                        case 2: predictor = b
                        case 3: predictor = (a + b) >> 1
                        default: predictor = paeth(a, b, c)
                        }
                        let r = UInt8(truncatingIfNeeded: Int(cur[i]) - predictor)
                        cand[i] = r
                        cost += r < 128 ? Int(r) : 256 - Int(r)
                    }
                    if cost < bestCost {
                        bestCost = cost
                        row[0] = UInt8(filter)
                        (row + 1).update(from: cand.baseAddress!, count: rowBytes)
                    }
                }
            }
        }}}}
        return out
    }

    @inline(__always)
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &out)
        let typeBytes = Array(type.utf8)
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        out += typeBytes
        out += data
        appendBigEndian(crc.value, to: &out)
    }

    private static func appendBigEndian(_ v: UInt32, to out: inout [UInt8]) {
        out += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
}
