import Imaging

/// Reads the EXIF Orientation tag (0x0112) of a JPEG from its APP1 "Exif" segment: the TIFF header
/// (either byte order) and the first IFD only, bounds-checked at every step. Absent, damaged or
/// out-of-range tags read as `.upright`, as photo viewers treat them.
public enum EXIFOrientation {
    public static func read(jpeg bytes: [UInt8]) -> ImageOrientation {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .upright }
        var i = 2
        // Markers up to the first scan; EXIF must come early (APP1), but some writers put APP0 first.
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }        // fill byte
            if marker == 0xDA || marker == 0xD9 { break } // start of scan, end of image
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { break }
            if marker == 0xE1, length >= 8,
               Array(bytes[i + 4 ..< i + 10]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return orientation(tiff: bytes[i + 10 ..< i + 2 + length])
            }
            i += 2 + length
        }
        return .upright
    }

    /// The tag from a TIFF structure (what follows "Exif\0\0").
    static func orientation(tiff: ArraySlice<UInt8>) -> ImageOrientation {
        let t = Array(tiff)
        guard t.count >= 8 else { return .upright }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return .upright
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return .upright }
        for entry in 0 ..< count {
            let e = ifd + 2 + 12 * entry
            guard let tag = u16(e) else { break }
            if tag == 0x0112 {
                // SHORT (type 3), one value, left-justified in the 4-byte value field.
                guard u16(e + 2) == 3, let value = u16(e + 8) else { return .upright }
                return ImageOrientation(rawValue: value) ?? .upright
            }
        }
        return .upright
    }
}
