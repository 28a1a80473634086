/// A zlib (RFC 1950) stream compressor using DEFLATE (RFC 1951) with LZ77 matching and the fixed
/// Huffman code: one block, no dynamic tables. Ratios are a little below zlib's default level but
/// the output is valid for any zlib/PNG reader, and the encoder is small enough to audit.
public enum Zlib {
    /// `data` as a complete zlib stream (header 78 01, one fixed-Huffman block, Adler-32).
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.bytes.reserveCapacity(data.count / 2 + 64)
        out.bytes.append(0x78); out.bytes.append(0x01)   // 32 KiB window, deflate; (0x7801 % 31 == 0)
        out.write(1, bits: 1)   // BFINAL
        out.write(1, bits: 2)   // BTYPE = 01, fixed Huffman
        data.withUnsafeBufferPointer { lz77(input: $0, out: &out) }
        out.writeSymbol(256)
        out.flush()
        let adler = Adler32.checksum(data)
        out.bytes.append(contentsOf: [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF),
                                      UInt8(adler & 0xFF)])
        return out.bytes
    }

    private static let windowSize = 32768
    private static let hashBits = 15
    private static let maxChain = 48
    private static let maxMatch = 258
    private static let minMatch = 3

    private static func lz77(input: UnsafeBufferPointer<UInt8>, out: inout BitWriter) {
        let n = input.count
        if n == 0 { return }
        let hashSize = 1 << hashBits
        var head = [Int32](repeating: -1, count: hashSize)
        var prev = [Int32](repeating: -1, count: windowSize)
        head.withUnsafeMutableBufferPointer { head in
        prev.withUnsafeMutableBufferPointer { prev in
            let p = input.baseAddress!
            @inline(__always) func hash(_ i: Int) -> Int {
                let v = UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16
                return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
            }
            @inline(__always) func insert(_ i: Int) {
                if i + minMatch > n { return }
                let h = hash(i)
                prev[i & (windowSize - 1)] = head[h]
                head[h] = Int32(i)
            }
            var i = 0
            while i < n {
                var bestLength = 0, bestDistance = 0
                if i + minMatch <= n {
                    let h = hash(i)
                    var candidate = Int(head[h])
                    let limit = min(maxMatch, n - i)
                    var chain = maxChain
                    while candidate >= 0 && i - candidate <= windowSize && chain > 0 {
                        // Quick reject on the byte that would extend the best match so far.
                        if p[candidate + bestLength] == p[i + bestLength] || bestLength == 0 {
                            var l = 0
                            while l < limit && p[candidate + l] == p[i + l] { l += 1 }
                            if l > bestLength {
                                bestLength = l; bestDistance = i - candidate
                                if l == limit { break }
                            }
                        }
                        let next = Int(prev[candidate & (windowSize - 1)])
                        if next >= candidate { break }   // stale entry from an older window
                        candidate = next
                        chain -= 1
                    }
                    prev[i & (windowSize - 1)] = head[h]
                    head[h] = Int32(i)
                }
                if bestLength >= minMatch {
                    out.writeLength(bestLength)
                    out.writeDistance(bestDistance)
                    for k in 1 ..< bestLength { insert(i + k) }
                    i += bestLength
                } else {
                    out.writeSymbol(Int(p[i]))
                    i += 1
                }
            }
        }}
    }
}

/// LSB-first bit packing as DEFLATE wants it, with the fixed Huffman code (RFC 1951 §3.2.6)
/// stored pre-reversed so symbols go out with one `write`.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    @inline(__always)
    mutating func write(_ value: UInt32, bits: Int) {
        buffer |= UInt64(value) << count
        count += UInt64(bits)
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0; count = 0
    }

    /// Literal/length symbol 0...285 in the fixed code.
    @inline(__always)
    mutating func writeSymbol(_ s: Int) {
        let e = FixedHuffman.literal[s]
        write(UInt32(e >> 8), bits: Int(e & 0xFF))
    }

    mutating func writeLength(_ length: Int) {
        let (code, extraBits, base) = FixedHuffman.lengthCode[length]
        writeSymbol(Int(code))
        if extraBits > 0 { write(UInt32(length - Int(base)), bits: Int(extraBits)) }
    }

    mutating func writeDistance(_ distance: Int) {
        var code = 0
        while code < 29 && FixedHuffman.distanceBase[code + 1] <= distance { code += 1 }
        write(FixedHuffman.reversed(UInt32(code), bits: 5), bits: 5)
        let extra = FixedHuffman.distanceExtra[code]
        if extra > 0 { write(UInt32(distance - FixedHuffman.distanceBase[code]), bits: extra) }
    }
}

enum FixedHuffman {
    static func reversed(_ v: UInt32, bits: Int) -> UInt32 {
        var r: UInt32 = 0, x = v
        for _ in 0 ..< bits { r = (r << 1) | (x & 1); x >>= 1 }
        return r
    }

    /// (bit-reversed code << 8) | length, for symbols 0...287.
    static let literal: [UInt32] = (0 ..< 288).map { s -> UInt32 in
        let (code, len): (UInt32, Int)
        switch s {
        case 0 ... 143: (code, len) = (0x30 + UInt32(s), 8)
        case 144 ... 255: (code, len) = (0x190 + UInt32(s - 144), 9)
        case 256 ... 279: (code, len) = (UInt32(s - 256), 7)
        default: (code, len) = (0xC0 + UInt32(s - 280), 8)
        }
        return reversed(code, bits: len) << 8 | UInt32(len)
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                             115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                               1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
                                12, 13, 13]

    /// For each match length 0...258: (symbol, extra bits, base length); entries below 3 unused.
    static let lengthCode: [(UInt16, UInt8, UInt16)] = (0 ... 258).map { length in
        if length < 3 { return (0, 0, 0) }
        // 258 has its own code (285) even though 227 + 31 would also reach it.
        var c = 0
        while c < 28 && lengthBase[c + 1] <= length && !(c + 1 == 28 && length != 258) { c += 1 }
        return (UInt16(257 + c), UInt8(lengthExtra[c]), UInt16(lengthBase[c]))
    }
}
