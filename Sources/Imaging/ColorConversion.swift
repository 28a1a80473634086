// Conversions between the three pixel formats. Integer arithmetic only, so results are exact
// and identical on every machine.

extension GrayImage {
    /// Luma of an RGB image by ITU-R BT.601: Y = 0.299 R + 0.587 G + 0.114 B, rounded.
    ///
    /// Weights are in 16-bit fixed point (19595, 38470, 7471; they sum to 65536, so a gray input
    /// comes back unchanged) — the same weights libjpeg uses for its RGB→YCbCr luma.
    public init(luma rgb: RGBImage) {
        self.init(width: rgb.width, height: rgb.height)
        setLuma(of: rgb)
    }

    /// Overwrites this image with the luma of `rgb` (as `init(luma:)`), reusing its storage when
    /// the size matches: the per-frame path of a pipeline that composites in RGB and tracks in gray.
    public mutating func setLuma(of rgb: RGBImage) {
        setLuma(of: rgb, inside: PixelRect(x: 0, y: 0, width: rgb.width, height: rgb.height))
    }

    /// Overwrites only the pixels inside `region` (clipped to the image) with the luma of `rgb`;
    /// the rest keep their values. A tracker that reads only around the faces it follows needs only
    /// that part converted. Resizing to `rgb`'s size (new storage) converts the whole image.
    public mutating func setLuma(of rgb: RGBImage, inside region: PixelRect) {
        var r = region.clamped(toWidth: rgb.width, height: rgb.height)
        if width != rgb.width || height != rgb.height || pixels.count != rgb.width * rgb.height {
            self = GrayImage(width: rgb.width, height: rgb.height)
            r = PixelRect(x: 0, y: 0, width: rgb.width, height: rgb.height)
        }
        guard !r.isEmpty else { return }
        let columns = r.x ..< r.maxX, rows = r.y ..< r.maxY
        let w = rgb.width
        rgb.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                if columns.count == w {
                    // Whole rows are contiguous: one run.
                    Self.convertRun(UnsafeRawPointer(src.baseAddress! + 3 * rows.lowerBound * w),
                                    UnsafeMutableRawPointer(dst.baseAddress! + rows.lowerBound * w), count: rows.count * w)
                } else {
                    for y in rows {
                        let i = y * w + columns.lowerBound
                        Self.convertRun(UnsafeRawPointer(src.baseAddress! + 3 * i), UnsafeMutableRawPointer(dst.baseAddress! + i),
                                        count: columns.count)
                    }
                }
            }
        }
    }

    /// Luma of `count` packed RGB pixels at `bytes` into `count` gray bytes at `out`.
    @inline(__always) private static func convertRun(_ bytes: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, count n: Int) {
        // Four pixels (12 bytes) per step as three 32-bit words: the compiler does not vectorise
        // stride-3 byte loads, and this runs 3x faster than a byte loop at 720p (it is on every
        // try-on frame), with the same result.
        var i = 0
        while i + 4 <= n {
            let w0 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 3 * i, as: UInt32.self))     // r0 g0 b0 r1
            let w1 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 3 * i + 4, as: UInt32.self)) // g1 b1 r2 g2
            let w2 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 3 * i + 8, as: UInt32.self)) // b2 r3 g3 b3
            let y0 = luma(w0 & 255, (w0 >> 8) & 255, (w0 >> 16) & 255)
            let y1 = luma(w0 >> 24, w1 & 255, (w1 >> 8) & 255)
            let y2 = luma((w1 >> 16) & 255, w1 >> 24, w2 & 255)
            let y3 = luma((w2 >> 8) & 255, (w2 >> 16) & 255, w2 >> 24)
            out.storeBytes(of: (y0 | y1 << 8 | y2 << 16 | y3 << 24).littleEndian, toByteOffset: i, as: UInt32.self)
            i += 4
        }
        let px = bytes.assumingMemoryBound(to: UInt8.self), dst = out.assumingMemoryBound(to: UInt8.self)
        while i < n {
            dst[i] = UInt8(truncatingIfNeeded: luma(UInt32(px[3 * i]), UInt32(px[3 * i + 1]), UInt32(px[3 * i + 2])))
            i += 1
        }
    }

    /// BT.601 luma of one pixel in 16-bit fixed point, rounded (0...255).
    @inline(__always) static func luma(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 {
        (19595 &* r &+ 38470 &* g &+ 7471 &* b &+ 32768) >> 16
    }

    /// Luma of an RGBA image (alpha ignored), as `init(luma:)` for RGB.
    public init(luma rgba: RGBAImage) {
        self.init(width: rgba.width, height: rgba.height)
        mapPixels(rgba.pixels, into: &pixels, count: rgba.width * rgba.height) { src, dst, i in
            dst[i] = UInt8(truncatingIfNeeded: Self.luma(UInt32(src[4 * i]), UInt32(src[4 * i + 1]), UInt32(src[4 * i + 2])))
        }
    }
}

extension RGBImage {
    /// Each gray level copied to R, G and B.
    public init(gray: GrayImage) {
        self.init(width: gray.width, height: gray.height)
        mapPixels(gray.pixels, into: &pixels, count: gray.width * gray.height) { src, dst, i in
            let v = src[i]
            dst[3 * i] = v; dst[3 * i + 1] = v; dst[3 * i + 2] = v
        }
    }

    /// The colour channels of an RGBA image; alpha is dropped (not composited).
    public init(dropAlpha rgba: RGBAImage) {
        self.init(width: rgba.width, height: rgba.height)
        mapPixels(rgba.pixels, into: &pixels, count: rgba.width * rgba.height) { src, dst, i in
            dst[3 * i] = src[4 * i]; dst[3 * i + 1] = src[4 * i + 1]; dst[3 * i + 2] = src[4 * i + 2]
        }
    }
}

extension RGBImage {
    /// An RGBA image composited over a solid `background` (straight alpha, see `composite`).
    public init(flattening rgba: RGBAImage, over background: RGBColor) {
        self.init(width: rgba.width, height: rgba.height, fill: (background.r, background.g, background.b))
        composite(rgba, atX: 0, y: 0)
    }
}

extension RGBAImage {
    /// An RGB image with one constant alpha (opaque by default).
    public init(rgb: RGBImage, alpha: UInt8 = 255) {
        self.init(width: rgb.width, height: rgb.height)
        let n = rgb.width * rgb.height
        rgb.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for i in 0 ..< n {
                    dst[4 * i] = src[3 * i]; dst[4 * i + 1] = src[3 * i + 1]; dst[4 * i + 2] = src[3 * i + 2]
                    dst[4 * i + 3] = alpha
                }
            }
        }
    }

    /// A gray image as RGBA, with one constant alpha.
    public init(gray: GrayImage, alpha: UInt8 = 255) {
        self.init(width: gray.width, height: gray.height)
        let n = gray.width * gray.height
        gray.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for i in 0 ..< n {
                    let v = src[i]
                    dst[4 * i] = v; dst[4 * i + 1] = v; dst[4 * i + 2] = v; dst[4 * i + 3] = alpha
                }
            }
        }
    }
}

/// Walks `count` pixels of two interleaved buffers in step: `body(src, dst, i)` for pixel `i`, with
/// the buffers' base pointers (one bounds-free loop shared by the format conversions above).
@inline(__always)
func mapPixels(_ source: [UInt8], into destination: inout [UInt8], count: Int,
               _ body: (UnsafeBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>, Int) -> Void) {
    source.withUnsafeBufferPointer { src in
        destination.withUnsafeMutableBufferPointer { dst in
            for i in 0 ..< count { body(src, dst, i) }
        }
    }
}
