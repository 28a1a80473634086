// Internal: the ModelFormat module has its own public CRC32, and two public types of one name
// would make every file importing both modules ambiguous.

/// CRC-32 as used by PNG, zlib's gzip and Ethernet (ISO-HDLC: reflected polynomial 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF). `CRC32.checksum(Array("123456789".utf8))` is 0xCBF43926.
struct CRC32: Sendable {
    static let table: [UInt32] = (0 ..< 256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0 ..< 8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF

    init() {}

    /// Feeds more bytes; the checksum of a concatenation is the same however it is split.
    mutating func update(_ bytes: some Collection<UInt8>) {
        var c = state
        CRC32.table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        state = c
    }

    var value: UInt32 { state ^ 0xFFFF_FFFF }

    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// Adler-32 (RFC 1950), the checksum that ends a zlib stream. `Adler32.checksum(Array("Wikipedia".utf8))`
/// is 0x11E60398.
struct Adler32: Sendable {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    init() {}

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var a = self.a, b = self.b
        var i = 0
        let n = bytes.count
        while i < n {
            // 5552 is the largest run for which b cannot overflow 32 bits before the modulo.
            let end = min(n, i + 5552)
            while i < end { a &+= UInt32(bytes[i]); b &+= a; i += 1 }
            a %= 65521; b %= 65521
        }
        self.a = a; self.b = b
    }

    var value: UInt32 { (b << 16) | a }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var s = Adler32()
        bytes.withUnsafeBufferPointer { s.update($0) }
        return s.value
    }
}
