import CPNG
import Imaging

/// PNG writing over libpng: 8-bit gray, RGB or RGBA, not interlaced, zlib level 6 by default
/// (libpng chooses the row filters). For debug dumps, thumbnails and screenshots.
public enum LibPNGEncoder {
    public static func encode(_ image: GrayImage, compressionLevel: Int = 6) throws -> [UInt8] {
        try encode(image.pixels, width: image.width, height: image.height, channels: 1, compressionLevel)
    }

    public static func encode(_ image: RGBImage, compressionLevel: Int = 6) throws -> [UInt8] {
        try encode(image.pixels, width: image.width, height: image.height, channels: 3, compressionLevel)
    }

    public static func encode(_ image: RGBAImage, compressionLevel: Int = 6) throws -> [UInt8] {
        try encode(image.pixels, width: image.width, height: image.height, channels: 4, compressionLevel)
    }

    private static func encode(_ pixels: [UInt8], width: Int, height: Int, channels: Int, _ level: Int) throws -> [UInt8] {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PNGDecodingError("cannot encode an empty \(width)x\(height) image")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer {
            lp_encode($0.baseAddress, Int32(width), Int32(height), Int32(channels), Int32(max(0, min(9, level))), &out, &length, &message, message.count)
        }
        defer { lp_free(out) }
        guard status == Int32(LP_OK.rawValue), let out else { throw PNGDecodingError(LibPNGDecoder.text(message)) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
