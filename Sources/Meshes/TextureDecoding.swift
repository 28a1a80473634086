import Imaging
import Media

/// Decodes PNG bytes to straight-alpha RGBA. Implemented by an adapter over zlib (`PNGCodec`), so
/// this module stays free of C imports. Implementations refuse images over `ImageSizeLimit` from
/// the header, before allocating.
public protocol PNGDecoding {
    func decodePNG(_ bytes: [UInt8]) throws -> RGBAImage
}

/// Decodes WebP bytes (`EXT_texture_webp`) to straight-alpha RGBA. Implemented by an adapter over
/// libwebp (`WebPCodec`); implementations refuse images over `ImageSizeLimit` from the header.
public protocol WebPDecoding: Sendable {
    func decodeWebP(_ bytes: [UInt8]) throws -> RGBAImage
}

/// The image decoders a model loader may use for embedded or external textures. A texture whose
/// format has no decoder here is dropped with a warning (the material keeps its base colour).
public struct TextureDecoders {
    public var jpeg: JPEGDecoding?
    public var png: PNGDecoding?
    public var webp: (any WebPDecoding)?

    public init(jpeg: JPEGDecoding? = nil, png: PNGDecoding? = nil, webp: (any WebPDecoding)? = nil) {
        self.jpeg = jpeg
        self.png = png
        self.webp = webp
    }

    /// The glTF extensions these decoders make readable (`EXT_texture_webp` with a WebP decoder).
    public var extensions: Set<String> { webp == nil ? [] : ["EXT_texture_webp"] }

    /// Decodes by content (magic bytes), not by the declared MIME type, which files get wrong.
    public func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        if bytes.count >= 8 && bytes[0] == 0x89 && bytes[1] == 0x50 && bytes[2] == 0x4E && bytes[3] == 0x47 {
            guard let png else { throw TextureDecodingError("no PNG decoder available") }
            return try png.decodePNG(bytes)
        }
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 {
            guard let jpeg else { throw TextureDecodingError("no JPEG decoder available") }
            // The same cap as photos and PNG textures (`ImageSizeLimit`), from the header, whatever
            // decoder was injected.
            let size = try jpeg.readSize(bytes)
            if let reason = ImageSizeLimit.violation(width: size.width, height: size.height) { throw TextureDecodingError(reason) }
            let rgb = try jpeg.decodeRGB(bytes, scale: .full)
            var rgba = [UInt8](repeating: 255, count: 4 * rgb.width * rgb.height)
            rgb.pixels.withUnsafeBufferPointer { s in
                rgba.withUnsafeMutableBufferPointer { d in
                    for i in 0..<(rgb.width * rgb.height) {
                        d[4 * i] = s[3 * i]; d[4 * i + 1] = s[3 * i + 1]; d[4 * i + 2] = s[3 * i + 2]
                    }
                }
            }
            return RGBAImage(width: rgb.width, height: rgb.height, pixels: rgba)
        }
        if bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8) {
            guard let webp else { throw TextureDecodingError("no WebP decoder available") }
            return try webp.decodeWebP(bytes)
        }
        throw TextureDecodingError("unknown image format (neither PNG, JPEG nor WebP)")
    }
}

/// Why one texture image could not be decoded.
public struct TextureDecodingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
