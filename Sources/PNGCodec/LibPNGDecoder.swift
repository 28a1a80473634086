import CPNG
import Imaging
import Meshes

/// A PNG decoder over libpng: every colour type (gray, RGB, palette, gray+alpha, RGBA), bit depths
/// 1-16 (16-bit samples scaled to 8 bits with rounding), `tRNS` transparency and Adam7 interlacing.
/// Output is straight-alpha RGBA8. A damaged file throws `PNGDecodingError` with libpng's reason.
public final class LibPNGDecoder: PNGDecoding {
    /// Refuses images above this many pixels before allocating, so a forged header cannot demand
    /// gigabytes. The engine-wide cap (`ImageSizeLimit`) unless a caller lowers it.
    public var maximumPixels = ImageSizeLimit.maximumPixels

    public init() {}

    /// The image's size, from its header only.
    public func size(of bytes: [UInt8]) throws -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { lp_read_size($0.baseAddress, $0.count, &width, &height, &message, message.count) }
        guard status == Int32(LP_OK.rawValue) else { throw PNGDecodingError(Self.text(message)) }
        return (Int(width), Int(height))
    }

    public func decodePNG(_ bytes: [UInt8]) throws -> RGBAImage {
        let (width, height) = try size(of: bytes)
        let area = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !area.overflow, area.partialValue <= maximumPixels else {
            throw PNGDecodingError("image \(width)x\(height) is larger than the \(maximumPixels / 1_000_000) Mpixel limit")
        }
        var pixels = [UInt8](repeating: 0, count: 4 * width * height)
        var w: Int32 = 0, h: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let limit = maximumPixels
        let status = bytes.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { out in
                lp_decode_rgba(input.baseAddress, input.count, limit, out.baseAddress, out.count, &w, &h, &message, message.count)
            }
        }
        switch status {
        case Int32(LP_OK.rawValue): return RGBAImage(width: Int(w), height: Int(h), pixels: pixels)
        case Int32(LP_TOO_LARGE.rawValue), Int32(LP_TOO_SMALL.rawValue):
            throw PNGDecodingError("image \(w)x\(h) is larger than the \(maximumPixels / 1_000_000) Mpixel limit")
        default: throw PNGDecodingError(Self.text(message))
        }
    }

    static func text(_ message: [CChar]) -> String {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "unreadable file" : text
    }
}

/// Why a PNG could not be decoded or encoded.
public struct PNGDecodingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = "PNG: " + description }
}
