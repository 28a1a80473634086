import Imaging

/// The still-image formats the engine reads, told apart by their first bytes (magic numbers), never
/// by the file's extension: a PNG saved as `photo.jpg` is still read as a PNG.
public enum StillImageFormat: String, Sendable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    case netpbm = "PGM/PPM"

    /// The formats, as an error message lists them.
    public static let accepted = "JPEG, PNG, PGM/PPM"

    /// The format of a file that starts with `bytes`, or nil for anything else.
    public init?(magic bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(8))
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF {
            self = .jpeg
        } else if b == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if b.count >= 3, b[0] == UInt8(ascii: "P"), (UInt8(ascii: "2") ... UInt8(ascii: "6")).contains(b[1]),
                  b[1] != UInt8(ascii: "4"), [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "#")].contains(b[2]) {
            self = .netpbm
        } else {
            return nil
        }
    }

    /// File names a folder of images is listed by (the content still decides how each is read).
    public static func hasImageExtension(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".jpg", ".jpeg", ".jpe", ".png", ".pgm", ".ppm", ".pnm"].contains { lower.hasSuffix($0) }
    }
}

/// Decodes one photograph, whatever its format, to the upright picture a photo viewer shows.
/// Implemented over the codecs by `Inputs.PhotoDecoder`, so this module stays free of C imports.
public protocol StillImageDecoding: AnyObject {
    /// The picture as a frame payload: a JPEG that needs no turning may stay compressed (the
    /// pipeline decodes it straight to the size and colour it needs); anything else is decoded.
    /// Throws a one-line error naming the defect or the formats accepted.
    func payload(of bytes: [UInt8]) throws -> Frame.Payload
    /// The upright width and height, from the header when the format allows.
    func uprightSize(of bytes: [UInt8]) throws -> (width: Int, height: Int)
    /// The upright picture's luma.
    func decodeGray(_ bytes: [UInt8]) throws -> GrayImage
}
