/// Netpbm gray (PGM) and colour (PPM) images: the simplest lossless format for debugging dumps
/// and test fixtures.
///
/// Writing produces binary P5/P6 with maxval 255. Reading accepts P2, P3 (ASCII) and P5, P6
/// (binary) with `#` comments and any maxval 1...65535 (16-bit samples are big-endian, as the
/// spec says); samples are rescaled to 0...255 with rounding when maxval is not 255. Malformed
/// input throws `NetPBMError` with a one-line reason, never traps.
public enum NetPBM {
    /// What a Netpbm file decoded to.
    public enum Image: Sendable, Equatable {
        case gray(GrayImage)
        case rgb(RGBImage)
    }

    public static func encode(_ image: GrayImage) -> [UInt8] {
        Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }

    public static func encode(_ image: RGBImage) -> [UInt8] {
        Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }

    public static func decode(_ bytes: [UInt8]) throws(NetPBMError) -> Image {
        var r = Reader(bytes: bytes)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { throw NetPBMError("not a Netpbm file (no P magic)") }
        let kind = bytes[1]
        r.position = 2
        let channels: Int, ascii: Bool
        switch kind {
        case UInt8(ascii: "2"): (channels, ascii) = (1, true)
        case UInt8(ascii: "3"): (channels, ascii) = (3, true)
        case UInt8(ascii: "5"): (channels, ascii) = (1, false)
        case UInt8(ascii: "6"): (channels, ascii) = (3, false)
        default: throw NetPBMError("unsupported Netpbm kind P\(Character(Unicode.Scalar(kind))) (only P2, P3, P5, P6)")
        }
        let width = try r.number("width"), height = try r.number("height"), maxval = try r.number("maxval")
        guard width > 0, height > 0 else { throw NetPBMError("bad size \(width)x\(height)") }
        guard width <= 1 << 16, height <= 1 << 16 else { throw NetPBMError("size \(width)x\(height) too large") }
        guard maxval >= 1, maxval <= 65535 else { throw NetPBMError("bad maxval \(maxval)") }
        if let reason = ImageSizeLimit.violation(width: width, height: height) { throw NetPBMError(reason) }
        let count = width * height * channels
        // Every sample takes at least one byte of the file, in either form: a header that promises
        // more samples than there are bytes is refused before the samples are allocated.
        guard bytes.count - r.position >= count else {
            throw NetPBMError("truncated data: \(width)x\(height) needs \(count) samples, the file has \(bytes.count - r.position) bytes left")
        }
        var samples = [UInt8](repeating: 0, count: count)
        if ascii {
            for i in 0 ..< count { samples[i] = try rescale(r.number("sample"), maxval) }
        } else {
            // Exactly one whitespace byte separates the header from binary data.
            guard r.position < bytes.count, isSpace(bytes[r.position]) else { throw NetPBMError("truncated header") }
            r.position += 1
            let bytesPerSample = maxval > 255 ? 2 : 1
            guard bytes.count - r.position >= count * bytesPerSample else {
                throw NetPBMError("truncated data: need \(count * bytesPerSample) bytes, have \(bytes.count - r.position)")
            }
            for i in 0 ..< count {
                let v = bytesPerSample == 2
                    ? Int(bytes[r.position + 2 * i]) << 8 | Int(bytes[r.position + 2 * i + 1])
                    : Int(bytes[r.position + i])
                samples[i] = try rescale(v, maxval)
            }
        }
        return channels == 1 ? .gray(GrayImage(width: width, height: height, pixels: samples))
            : .rgb(RGBImage(width: width, height: height, pixels: samples))
    }

    private static func rescale(_ v: Int, _ maxval: Int) throws(NetPBMError) -> UInt8 {
        guard v <= maxval else { throw NetPBMError("sample \(v) exceeds maxval \(maxval)") }
        return maxval == 255 ? UInt8(v) : UInt8((v * 255 + maxval / 2) / maxval)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        /// The next decimal number, skipping whitespace and `#` comments.
        mutating func number(_ what: String) throws(NetPBMError) -> Int {
            while position < bytes.count {
                let b = bytes[position]
                if NetPBM.isSpace(b) { position += 1; continue }
                if b == UInt8(ascii: "#") {
                    while position < bytes.count && bytes[position] != 0x0A && bytes[position] != 0x0D { position += 1 }
                    continue
                }
                break
            }
            var value = 0, digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                value = value * 10 + Int(bytes[position] - 0x30)
                digits += 1
                position += 1
                if digits > 9 { throw NetPBMError("\(what) has too many digits") }
            }
            if digits == 0 { throw NetPBMError(position >= bytes.count ? "truncated: missing \(what)" : "expected \(what), found byte \(bytes[position])") }
            return value
        }
    }
}

/// Why a Netpbm file could not be read.
public struct NetPBMError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ message: String) { description = "Netpbm: " + message }
}
