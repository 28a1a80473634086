// The one place where a colour meets a pixel. Opacity is an integer weight in 0...256
// (256 = replace) so the inner loops stay in integer arithmetic: out = dst + (src - dst) * a / 256.

extension RGBImage {
    /// Blends `color` with weight `a` (0...256) onto `count` consecutive pixels starting at `p`.
    @inline(__always)
    static func blendRun(_ p: UnsafeMutablePointer<UInt8>, count: Int, color: RGBColor, weight a: Int32) {
        if a <= 0 || count <= 0 { return }
        if a >= 256 {
            for i in 0 ..< count { p[3 * i] = color.r; p[3 * i + 1] = color.g; p[3 * i + 2] = color.b }
            return
        }
        let r = Int32(color.r), g = Int32(color.g), b = Int32(color.b)
        for i in 0 ..< count {
            let q = p + 3 * i
            let dr = Int32(q[0]), dg = Int32(q[1]), db = Int32(q[2])
            q[0] = UInt8(truncatingIfNeeded: dr + (((r - dr) * a + 128) >> 8))
            q[1] = UInt8(truncatingIfNeeded: dg + (((g - dg) * a + 128) >> 8))
            q[2] = UInt8(truncatingIfNeeded: db + (((b - db) * a + 128) >> 8))
        }
    }

    /// Converts a coverage or opacity in [0, 1] to the integer blend weight.
    @inline(__always)
    static func weight(_ coverage: Float) -> Int32 {
        if !(coverage > 0) { return 0 }
        if coverage >= 1 { return 256 }
        return Int32(coverage * 256 + 0.5)
    }

    /// Runs `body` with the pixel buffer's base address; nothing is called on an empty image.
    @inline(__always)
    mutating func withPixelBase(_ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        if width == 0 || height == 0 { return }
        pixels.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}

/// Clamps `v` into `lo...hi` for the drawing code's row and column ranges; NaN and infinities
/// become the nearest bound so off-image or degenerate geometry never traps on conversion.
@inline(__always)
func clampToInt(_ v: Float, _ lo: Int, _ hi: Int) -> Int {
    if !(v > Float(lo)) { return lo }
    if v >= Float(hi) { return hi }
    return Int(v)
}
