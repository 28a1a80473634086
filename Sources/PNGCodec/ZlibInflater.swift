import CZlib

/// Inflates zlib streams (RFC 1950) with the system zlib.
enum ZlibInflater {
    enum Failure: Error { case corrupt, tooLarge, truncated }

    /// Inflates `input`, which must decompress to exactly `expectedLength` bytes or fewer;
    /// returns the bytes produced (the caller checks the length it needs).
    static func inflate(_ input: [UInt8], expectedLength: Int) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(expectedLength, 1))
        var written = 0
        let r = input.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                czlib_inflate(src.baseAddress, src.count, dst.baseAddress, expectedLength, &written)
            }
        }
        switch r {
        case 0: out.removeLast(out.count - written); return out
        case 2: throw .tooLarge
        case 3: throw .truncated
        default: throw .corrupt
        }
    }
}
