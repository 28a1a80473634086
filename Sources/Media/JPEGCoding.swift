import Imaging

/// DCT-domain downscaling offered by JPEG decoders: decoding at 1/2 costs about a third of a full decode.
public enum DCTScale: Int, Sendable, CaseIterable {
    case full = 1, half = 2, quarter = 4, eighth = 8

    /// Output side for an input side, as libjpeg computes it (ceil(side / denominator)).
    public func scaled(_ side: Int) -> Int { (side + rawValue - 1) / rawValue }
}

/// Why a JPEG could not be decoded or encoded. `message` is the codec's own words.
public enum JPEGError: Error, Equatable, CustomStringConvertible {
    case corrupt(String)
    case truncated(String)
    case emptyImage
    case unsupported(String)
    case encodeFailed(String)

    public var description: String {
        switch self {
        case .corrupt(let m): return "corrupt JPEG: \(m)"
        case .truncated(let m): return "truncated JPEG: \(m)"
        case .emptyImage: return "JPEG declares a 0x0 image"
        case .unsupported(let m): return "unsupported JPEG: \(m)"
        case .encodeFailed(let m): return "JPEG encode failed: \(m)"
        }
    }
}

/// Decodes JPEG bytes. Implementations keep their codec state between calls (no per-frame setup)
/// and are not thread-safe: use one decoder per thread.
public protocol JPEGDecoding: AnyObject {
    /// Width and height from the frame header, without decoding the scan.
    func readSize(_ jpeg: [UInt8]) throws -> (width: Int, height: Int)
    /// Decodes to grayscale (luma only, no colour conversion), optionally DCT-scaled, into `image`.
    func decodeGray(_ jpeg: [UInt8], scale: DCTScale, into image: inout GrayImage) throws
    /// Decodes to RGB, optionally DCT-scaled, into `image`.
    func decodeRGB(_ jpeg: [UInt8], scale: DCTScale, into image: inout RGBImage) throws
    /// Corrupt-data warnings of the last decode that still produced a picture (0 when the codec does
    /// not count them).
    var lastWarningCount: Int { get }
}

/// Encodes RGB images to baseline JPEG with standard Huffman tables (so every frame is self-contained).
public protocol JPEGEncoding: AnyObject {
    /// `quality` 1...100. Returns a complete JPEG.
    func encode(_ image: RGBImage, quality: Int) throws -> [UInt8]
    /// The same JPEG written into `output` (replacing its contents). An encoder that can should reuse
    /// `output`'s storage, so a caller encoding frame after frame into one buffer allocates nothing.
    func encode(_ image: RGBImage, quality: Int, into output: inout [UInt8]) throws
    /// A one-component (grayscale) JPEG where the encoder can make one.
    func encode(_ image: GrayImage, quality: Int) throws -> [UInt8]
}

extension JPEGEncoding {
    /// Fallback for encoders without a buffer-reusing path: one new array per call.
    public func encode(_ image: RGBImage, quality: Int, into output: inout [UInt8]) throws {
        output = try encode(image, quality: quality)
    }

    /// Fallback for encoders without a grayscale path: the picture as RGB.
    public func encode(_ image: GrayImage, quality: Int) throws -> [UInt8] {
        try encode(RGBImage(gray: image), quality: quality)
    }
}

extension JPEGDecoding {
    public var lastWarningCount: Int { 0 }

    public func decodeGray(_ jpeg: [UInt8], scale: DCTScale = .full) throws -> GrayImage {
        var image = GrayImage(width: 0, height: 0)
        try decodeGray(jpeg, scale: scale, into: &image)
        return image
    }

    public func decodeRGB(_ jpeg: [UInt8], scale: DCTScale = .full) throws -> RGBImage {
        var image = RGBImage(width: 0, height: 0)
        try decodeRGB(jpeg, scale: scale, into: &image)
        return image
    }
}
