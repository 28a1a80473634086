import CWebP
import Imaging
import Meshes

/// `WebPDecoding` over libwebp (Debian `libwebp-dev`): lossy and lossless WebP, with or without
/// alpha, to straight-alpha RGBA. The size is read from the header and checked against
/// `ImageSizeLimit` before the pixels are allocated.
public struct LibWebPDecoder: WebPDecoding {
    public init() {}

    public func decodeWebP(_ bytes: [UInt8]) throws -> RGBAImage {
        var width: Int32 = 0, height: Int32 = 0
        guard lw_read_size(bytes, bytes.count, &width, &height) == Int32(LW_OK.rawValue) else {
            throw TextureDecodingError("not a readable WebP image")
        }
        if let reason = ImageSizeLimit.violation(width: Int(width), height: Int(height)) { throw TextureDecodingError(reason) }
        var rgba = [UInt8](repeating: 0, count: 4 * Int(width) * Int(height))
        let status = rgba.withUnsafeMutableBufferPointer { lw_decode_rgba(bytes, bytes.count, $0.baseAddress, $0.count, width, height) }
        guard status == Int32(LW_OK.rawValue) else { throw TextureDecodingError("corrupt WebP data") }
        return RGBAImage(width: Int(width), height: Int(height), pixels: rgba)
    }
}
