import CJPEGTurbo
import Imaging
import Media

/// `JPEGDecoding` over libjpeg-turbo. One instance holds one decompressor for its whole life,
/// so a steady stream of frames allocates nothing (outputs are decoded into caller-owned images).
///
/// Not thread-safe: use one decoder per thread.
public final class TurboJPEGDecoder: JPEGDecoding {
    private let handle: OpaquePointer
    /// Corrupt-data warnings libjpeg recovered from during the last decode (e.g. extraneous bytes).
    public private(set) var lastWarningCount = 0
    /// When true, any libjpeg warning fails the decode; when false (default) only a truncated
    /// stream does, since webcams often emit harmless "extraneous bytes" warnings.
    public var strict: Bool

    public init(strict: Bool = false) {
        guard let h = lj_decoder_create() else { fatalError("libjpeg: cannot allocate a decompressor") }
        handle = h
        self.strict = strict
    }

    deinit { lj_decoder_destroy(handle) }

    public func readSize(_ jpeg: [UInt8]) throws -> (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0, c: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { lj_read_header(handle, $0.baseAddress, $0.count, &w, &h, &c) }
        try check(status, length: jpeg.count)
        return (Int(w), Int(h))
    }

    public func decodeGray(_ jpeg: [UInt8], scale: DCTScale, into image: inout GrayImage) throws {
        let (w, h) = try outputSize(jpeg, scale: scale)
        image.reshape(width: w, height: h)
        try decode(jpeg, color: Int32(LJ_GRAY.rawValue), scale: scale, into: &image.pixels)
    }

    public func decodeRGB(_ jpeg: [UInt8], scale: DCTScale, into image: inout RGBImage) throws {
        let (w, h) = try outputSize(jpeg, scale: scale)
        image.reshape(width: w, height: h)
        Self.avoidStreamingStores(&image.pixels, rowBytes: image.rowStride)
        try decode(jpeg, color: Int32(LJ_RGB.rawValue), scale: scale, into: &image.pixels)
    }

    /// libjpeg-turbo's AVX2 colour conversion writes an output row that starts on a 32-byte boundary
    /// with non-temporal stores, which bypass the cache (`test $0x1f, %rdi; vmovntdq` in its YCbCr-to-RGB
    /// kernel): the frame just decoded is then read back from memory by everything that follows —
    /// the tracker's crop, the renderer, the encoder. At 720p that cost the try-on 0.15-0.2 ms a frame
    /// (track 0.47 → 0.62 ms, encode +0.06 ms), in about half of the processes: Swift arrays start
    /// 16-byte aligned, and a 1280- or 640-pixel RGB row is a multiple of 32 bytes, so either every row
    /// is aligned or none is. Rows 16 bytes off the boundary are written through the cache, so a buffer
    /// whose rows would all be aligned is reallocated (once, when it is made) until they are not.
    static func avoidStreamingStores(_ pixels: inout [UInt8], rowBytes: Int) {
        @inline(__always) func onBoundary(_ start: UnsafeMutablePointer<UInt8>?) -> Bool {
            UInt(bitPattern: start) % 32 == 0
        }
        guard rowBytes % 32 == 0, !pixels.isEmpty, pixels.withUnsafeMutableBufferPointer({ onBoundary($0.baseAddress) }) else { return }
        // The tries are held until the loop ends, so each gets a fresh address, and differ by 16 bytes
        // of capacity, so that blocks carved one after another do not all fall on the same 32-byte
        // phase. There can be many tries: the allocator hands out freed blocks of a near size first,
        // and the freed blocks of this size are mostly aligned ones, the ones earlier calls rejected
        // (eight tries were all aligned in about one test run in eight; up to 21 were needed in 40
        // runs of the JPEG tests). A try only reserves capacity; the chosen block is zeroed.
        var rejected: [[UInt8]] = []
        let n = pixels.count
        for k in 1...maximumTries {
            let fresh = [UInt8](unsafeUninitializedCapacity: n + 16 * k) { buffer, count in
                guard !onBoundary(buffer.baseAddress) else { count = 0; return }
                buffer.baseAddress!.initialize(repeating: 0, count: n)
                count = n
            }
            if !fresh.isEmpty { pixels = fresh; return }
            rejected.append(fresh)
        }
    }

    /// Tries before giving up (the rows then stay aligned: slower, same image).
    static let maximumTries = 256

    /// The decoded size, after the frame header's size passed `ImageSizeLimit`: every decode (photos,
    /// every frame of an MJPEG stream or AVI, textures) goes through here before its pixels are
    /// allocated, so a forged SOF is refused from the header alone, at any DCT scale.
    private func outputSize(_ jpeg: [UInt8], scale: DCTScale) throws -> (Int, Int) {
        var w: Int32 = 0, h: Int32 = 0, fullW: Int32 = 0, fullH: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer {
            lj_output_size(handle, $0.baseAddress, $0.count, Int32(scale.rawValue), &w, &h, &fullW, &fullH)
        }
        try check(status, length: jpeg.count)
        if let reason = ImageSizeLimit.violation(width: Int(fullW), height: Int(fullH)) { throw JPEGError.unsupported(reason) }
        return (Int(w), Int(h))
    }

    private func decode(_ jpeg: [UInt8], color: Int32, scale: DCTScale, into pixels: inout [UInt8]) throws {
        var w: Int32 = 0, h: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                lj_decode(handle, src.baseAddress, src.count, color, Int32(scale.rawValue), dst.baseAddress, dst.count, &w, &h)
            }
        }
        lastWarningCount = Int(lj_decoder_warnings(handle))
        try check(status, length: jpeg.count)
        if strict && lastWarningCount > 0 { throw JPEGError.corrupt(message) }
    }

    private var message: String { String(cString: lj_decoder_message(handle)) }

    private func check(_ status: Int32, length: Int) throws {
        switch status {
        case Int32(LJ_OK.rawValue): return
        case Int32(LJ_EMPTY.rawValue): throw JPEGError.emptyImage
        case Int32(LJ_TRUNCATED.rawValue): throw JPEGError.truncated(message)
        case Int32(LJ_TOO_SMALL.rawValue): throw JPEGError.corrupt("output buffer too small (internal error)")
        default:
            // libjpeg says "Empty input file" for zero bytes and reads past the end as truncation.
            if length == 0 { throw JPEGError.truncated("no data") }
            throw JPEGError.corrupt(message)
        }
    }
}
