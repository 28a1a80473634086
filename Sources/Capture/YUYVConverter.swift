import Imaging

/// Converts packed YUYV 4:2:2 (Y0 U Y1 V, two pixels per four bytes) to interleaved RGB.
///
/// BT.601 coefficients in 8.8 fixed point. `fullRange` selects JPEG-style 0...255 Y'CbCr;
/// otherwise the limited 16...235 (chroma 16...240) range V4L2 assumes for YUV unless the driver
/// says `V4L2_QUANTIZATION_FULL_RANGE`. `bytesPerLine` may exceed `2 * width` (row padding).
public enum YUYVConverter {
    public static func convert(_ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int,
                               fullRange: Bool = false, into image: inout RGBImage) {
        precondition(width % 2 == 0, "YUYV width must be even")
        precondition(bytesPerLine >= 2 * width && source.count >= bytesPerLine * (height - 1) + 2 * width,
                     "YUYV buffer too small for \(width)x\(height)")
        image.reshape(width: width, height: height)
        // Full range: R = Y + 1.402 V ...; limited: R = 1.164 (Y - 16) + 1.596 V ...
        let yScale = fullRange ? 256 : 298, yOffset = fullRange ? 0 : 16
        let rv = fullRange ? 359 : 409, gu = fullRange ? 88 : 100, gv = fullRange ? 183 : 208, bu = fullRange ? 454 : 516
        image.pixels.withUnsafeMutableBufferPointer { out in
            guard let src = source.baseAddress?.assumingMemoryBound(to: UInt8.self), let dst = out.baseAddress else { return }
            for y in 0..<height {
                var s = src + y * bytesPerLine
                var d = dst + y * 3 * width
                for _ in 0..<(width / 2) {
                    let u = Int(s[1]) - 128, v = Int(s[3]) - 128
                    let r = rv * v + 128, g = -gu * u - gv * v + 128, b = bu * u + 128
                    let y0 = yScale * (Int(s[0]) - yOffset), y1 = yScale * (Int(s[2]) - yOffset)
                    d[0] = clamp((y0 + r) >> 8); d[1] = clamp((y0 + g) >> 8); d[2] = clamp((y0 + b) >> 8)
                    d[3] = clamp((y1 + r) >> 8); d[4] = clamp((y1 + g) >> 8); d[5] = clamp((y1 + b) >> 8)
                    s += 4
                    d += 6
                }
            }
        }
    }

    @inline(__always) private static func clamp(_ v: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v))
    }
}
