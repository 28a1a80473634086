/// The binary glTF container (glTF 2.0 spec, section "GLB File Format Specification"): a 12-byte
/// header (magic "glTF", version 2, total length) followed by a JSON chunk and an optional BIN chunk.
struct GLBContainer {
    let json: [UInt8]
    let binary: [UInt8]?

    /// Throws a reason string (the caller adds the path) for any structural defect.
    init(_ bytes: [UInt8]) throws(GLBError) {
        func u32(_ o: Int) -> Int {
            Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24
        }
        guard bytes.count >= 12, u32(0) == 0x4654_6C67 else { throw GLBError("not a GLB file (no 'glTF' magic)") }
        guard u32(4) == 2 else { throw GLBError("GLB version \(u32(4)) is not supported (only 2)") }
        let total = u32(8)
        guard total <= bytes.count else { throw GLBError("GLB header declares \(total) bytes but the file has \(bytes.count) (truncated)") }
        var offset = 12
        var json: [UInt8]?
        var binary: [UInt8]?
        while offset + 8 <= total {
            let length = u32(offset), type = u32(offset + 4)
            let start = offset + 8
            guard length >= 0, start + length <= total else {
                throw GLBError("GLB chunk at byte \(offset) runs past the end of the file (truncated)")
            }
            if type == 0x4E4F_534A, json == nil { json = Array(bytes[start..<start + length]) }
            else if type == 0x004E_4942, binary == nil { binary = Array(bytes[start..<start + length]) }
            offset = start + ((length + 3) & ~3)
        }
        guard let json else { throw GLBError("GLB file has no JSON chunk") }
        self.json = json
        self.binary = binary
    }
}

struct GLBError: Error { let reason: String; init(_ r: String) { reason = r } }
