import Imaging

/// RGB to the Y'CbCr layouts V4L2 output devices carry, BT.601 limited range (Y' 16-235, chroma
/// 16-240): the colour space (`V4L2_COLORSPACE_SMPTE170M`) the device is told and webcams send, and
/// the exact inverse of the capture side's `YUYVConverter` up to rounding.
///
/// Chroma is the mean of the pixels it covers (2x1 for YUYV, 2x2 for I420), in 8.8 fixed point as
/// the capture converter. Sizes must be even in the subsampled directions (the device's size is).
public enum YUVPacking {
    /// Packs `image` as YUYV 4:2:2 into `out` (resized to `2 * width * height` bytes).
    public static func yuyv(_ image: RGBImage, into out: inout [UInt8]) {
        let w = image.width, h = image.height
        precondition(w % 2 == 0, "YUYV width must be even")
        if out.count != 2 * w * h { out = [UInt8](repeating: 0, count: 2 * w * h) }
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s0 = src.baseAddress, let d0 = dst.baseAddress else { return }
                for y in 0..<h {
                    var s = s0 + 3 * w * y, d = d0 + 2 * w * y
                    for _ in 0..<(w / 2) {
                        let r0 = Int(s[0]), g0 = Int(s[1]), b0 = Int(s[2]), r1 = Int(s[3]), g1 = Int(s[4]), b1 = Int(s[5])
                        d[0] = luma(r0, g0, b0)
                        d[2] = luma(r1, g1, b1)
                        let (u, v) = chroma(r0 + r1, g0 + g1, b0 + b1, shift: 9)
                        d[1] = u; d[3] = v
                        s += 6; d += 4
                    }
                }
            }
        }
    }

    /// Packs `image` as planar I420 (Y plane, then U and V at half width and height) into `out`.
    public static func i420(_ image: RGBImage, into out: inout [UInt8]) {
        let w = image.width, h = image.height
        precondition(w % 2 == 0 && h % 2 == 0, "I420 needs an even width and height")
        let cw = w / 2, ch = h / 2
        let size = w * h + 2 * cw * ch
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s0 = src.baseAddress, let d0 = dst.baseAddress else { return }
                let uPlane = d0 + w * h, vPlane = uPlane + cw * ch
                for cy in 0..<ch {
                    let top = s0 + 3 * w * (2 * cy), bottom = top + 3 * w
                    let yTop = d0 + w * (2 * cy), yBottom = yTop + w
                    for cx in 0..<cw {
                        let a = top + 6 * cx, c = bottom + 6 * cx
                        yTop[2 * cx] = luma(Int(a[0]), Int(a[1]), Int(a[2]))
                        yTop[2 * cx + 1] = luma(Int(a[3]), Int(a[4]), Int(a[5]))
                        yBottom[2 * cx] = luma(Int(c[0]), Int(c[1]), Int(c[2]))
                        yBottom[2 * cx + 1] = luma(Int(c[3]), Int(c[4]), Int(c[5]))
                        let r = Int(a[0]) + Int(a[3]) + Int(c[0]) + Int(c[3])
                        let g = Int(a[1]) + Int(a[4]) + Int(c[1]) + Int(c[4])
                        let b = Int(a[2]) + Int(a[5]) + Int(c[2]) + Int(c[5])
                        let (u, v) = chroma(r, g, b, shift: 10)
                        uPlane[cw * cy + cx] = u
                        vPlane[cw * cy + cx] = v
                    }
                }
            }
        }
    }

    /// Y' = 16 + (65.738 R + 129.057 G + 25.064 B) / 256.
    @inline(__always) static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (66 * r + 129 * g + 25 * b + 128) >> 8 + 16)
    }

    /// Cb, Cr of a sum of 2^(shift - 8) pixels: 128 + (-37.945 R - 74.494 G + 112.439 B) / 256 and
    /// 128 + (112.439 R - 94.154 G - 18.285 B) / 256 of their mean (arithmetic shifts round down;
    /// the half added first makes that round to nearest).
    @inline(__always) static func chroma(_ r: Int, _ g: Int, _ b: Int, shift: Int) -> (UInt8, UInt8) {
        let half = 1 << (shift - 1)
        let u = (-38 * r - 74 * g + 112 * b + half) >> shift + 128
        let v = (112 * r - 94 * g - 18 * b + half) >> shift + 128
        return (UInt8(clamping: u), UInt8(clamping: v))
    }
}
