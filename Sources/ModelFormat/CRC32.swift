/// IEEE 802.3 CRC-32 (the zlib/PNG polynomial, reflected 0xEDB88320).
public enum CRC32 {
    /// Slicing-by-8 tables (Intel's method, as in zlib's braided CRC): `tables[k * 256 + b]` is the CRC
    /// of byte `b` followed by `k` zero bytes, so eight bytes advance the CRC with eight independent
    /// look-ups instead of a chain of eight dependent ones. Table 0 is the classic byte-wise table.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 { t[k * 256 + n] = t[(k - 1) * 256 + n] >> 8 ^ t[Int(t[(k - 1) * 256 + n] & 0xff)] }
        }
        return t
    }()

    /// The checksum of the bytes in `buffer`.
    ///
    /// The model archive checks its whole file with this before reading it (1.1 MB for the landmark
    /// model). Byte-wise, with Swift's checks (a bounds check on every table look-up), it was three
    /// quarters of a 3.4 ms parse in `perf` (2.85 ms -Ounchecked); eight bytes a step, with the table
    /// read through a pointer, it is 0.5 ms of a 0.9 ms parse (Bench/README.md, "Checked parsers"). No check is lost:
    /// every table index is a byte (`& 0xff`) plus `k * 256` for k < 8, so it is below 2048, the
    /// table's size, and the input is read only inside `buffer`'s own bounds.
    public static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { table -> UInt32 in
            let t = table.baseAddress!
            var c: UInt32 = 0xFFFF_FFFF
            var i = 0
            let count = buffer.count
            while count - i >= 8 {
                let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ c
                let high = UInt32(truncatingIfNeeded: word >> 32)
                c = t[7 * 256 + Int(low & 0xff)] ^ t[6 * 256 + Int(low >> 8 & 0xff)]
                    ^ t[5 * 256 + Int(low >> 16 & 0xff)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xff)] ^ t[2 * 256 + Int(high >> 8 & 0xff)]
                    ^ t[256 + Int(high >> 16 & 0xff)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < count {
                c = t[Int((c ^ UInt32(buffer[i])) & 0xff)] ^ (c >> 8)
                i += 1
            }
            return c ^ 0xFFFF_FFFF
        }
    }

    /// The checksum of any byte collection: contiguous ones (arrays, slices) take the pointer path.
    public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) { return crc }
        return checksum(Array(bytes))
    }

    /// The checksum of a byte array. Callers in other modules get this concrete function: they cannot
    /// specialise the generic one, which unspecialised boxes every byte (one malloc per byte).
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
