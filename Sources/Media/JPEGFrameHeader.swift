/// The size a JPEG declares in its frame header (SOFn), read by walking the marker segments
/// without decoding anything (ITU T.81 / ISO 10918-1 B.2).
///
/// Containers need the size before any decoder is involved (an AVI header is written from the
/// first frame), and the domain layer cannot call libjpeg.
public struct JPEGFrameHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Colour components (1 gray, 3 YCbCr).
    public var components: Int

    /// Parses the header of `jpeg`; nil when it is not a JPEG or has no SOF before the first scan.
    public init?(_ jpeg: [UInt8]) {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var p = 2
        while p + 4 <= jpeg.count {
            guard jpeg[p] == 0xFF else { return nil }
            let marker = jpeg[p + 1]
            if marker == 0xFF { p += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { p += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }
            let length = Int(jpeg[p + 2]) << 8 | Int(jpeg[p + 3])
            guard length >= 2 else { return nil }
            // SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard p + 10 <= jpeg.count else { return nil }
                height = Int(jpeg[p + 5]) << 8 | Int(jpeg[p + 6])
                width = Int(jpeg[p + 7]) << 8 | Int(jpeg[p + 8])
                components = Int(jpeg[p + 9])
                return
            }
            p += 2 + length
        }
        return nil
    }
}
