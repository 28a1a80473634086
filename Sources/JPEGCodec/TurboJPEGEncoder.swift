import CJPEGTurbo
import Imaging
import Media

/// `JPEGEncoding` over libjpeg-turbo: baseline, 4:2:0, standard Huffman tables, so every frame
/// is a self-contained JPEG that MJPEG and AVI players accept as is.
///
/// Holds one compressor and one output buffer for its whole life. Not thread-safe.
public final class TurboJPEGEncoder: JPEGEncoding {
    private let handle: OpaquePointer

    public init() {
        guard let h = lj_encoder_create() else { fatalError("libjpeg: cannot allocate a compressor") }
        handle = h
    }

    deinit { lj_encoder_destroy(handle) }

    public func encode(_ image: RGBImage, quality: Int) throws -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, color: Int32(LJ_RGB.rawValue), quality: quality)
    }

    public func encode(_ image: RGBImage, quality: Int, into output: inout [UInt8]) throws {
        let jpeg = try encodeInPlace(pixels: image.pixels, width: image.width, height: image.height, color: Int32(LJ_RGB.rawValue), quality: quality)
        // Appending within the existing capacity reuses the buffer: no allocation once it has grown.
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: jpeg)
    }

    public func encode(_ image: GrayImage, quality: Int) throws -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, color: Int32(LJ_GRAY.rawValue), quality: quality)
    }

    private func encode(pixels: [UInt8], width: Int, height: Int, color: Int32, quality: Int) throws -> [UInt8] {
        Array(try encodeInPlace(pixels: pixels, width: width, height: height, color: color, quality: quality))
    }

    /// The encoded bytes in the codec's own output buffer, valid until the next encode on this encoder.
    private func encodeInPlace(pixels: [UInt8], width: Int, height: Int, color: Int32, quality: Int) throws -> UnsafeBufferPointer<UInt8> {
        guard width > 0, height > 0 else { throw JPEGError.emptyImage }
        let q = Int32(min(100, max(1, quality)))
        var out: UnsafePointer<UInt8>?
        var length = 0
        let status = pixels.withUnsafeBufferPointer {
            lj_encode(handle, $0.baseAddress, Int32(width), Int32(height), color, q, &out, &length)
        }
        guard status == Int32(LJ_OK.rawValue), let out else {
            throw JPEGError.encodeFailed(String(cString: lj_encoder_message(handle)))
        }
        return UnsafeBufferPointer(start: out, count: length)
    }
}
