/// Little-endian field access for RIFF structures, which store every integer little-endian.
extension Array where Element == UInt8 {
    func u16LE(at i: Int) -> UInt16 {
        UInt16(self[i]) | UInt16(self[i + 1]) << 8
    }

    func u32LE(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }

    func u64LE(at i: Int) -> UInt64 {
        UInt64(u32LE(at: i)) | UInt64(u32LE(at: i + 4)) << 32
    }

    /// Four ASCII characters at `i` (a RIFF FourCC), with non-printable bytes shown as '?'.
    func fourCC(at i: Int) -> String {
        String(decoding: self[i..<i + 4].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    mutating func appendU16LE(_ v: UInt16) {
        append(UInt8(v & 0xFF)); append(UInt8(v >> 8))
    }

    mutating func appendU32LE(_ v: UInt32) {
        append(UInt8(v & 0xFF)); append(UInt8(v >> 8 & 0xFF)); append(UInt8(v >> 16 & 0xFF)); append(UInt8(v >> 24))
    }

    mutating func appendU64LE(_ v: UInt64) {
        appendU32LE(UInt32(v & 0xFFFF_FFFF)); appendU32LE(UInt32(v >> 32))
    }

    mutating func appendFourCC(_ code: String) {
        let bytes = Array(code.utf8)
        precondition(bytes.count == 4, "FourCC must be 4 ASCII characters")
        append(contentsOf: bytes)
    }

    mutating func setU32LE(_ v: UInt32, at i: Int) {
        self[i] = UInt8(v & 0xFF); self[i + 1] = UInt8(v >> 8 & 0xFF)
        self[i + 2] = UInt8(v >> 16 & 0xFF); self[i + 3] = UInt8(v >> 24)
    }
}

/// The four bytes of a 32-bit little-endian value, for patching a field in place.
func bytesU32LE(_ v: UInt32) -> [UInt8] {
    [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
}
