// The one place where a colour meets a pixel. Opacity is an integer weight in 0...256
// (256 = replace) so the inner loops stay in integer arithmetic: out = dst + (src - dst) * a / 256.

extension RGBImage {
    /// Blends `color` with weight `a` (0...256) onto `count` consecutive pixels starting at `p`:
    /// out = (dst * (256 - a) + color * a + 128) >> 8.
    @inline(__always)
    static func blendRun(_ p: UnsafeMutablePointer<UInt8>, count: Int, color: RGBColor, weight a: Int32) {
        if a <= 0 || count <= 0 { return }
        if a >= 256 {
            for i in 0 ..< count { p[3 * i] = color.r; p[3 * i + 1] = color.g; p[3 * i + 2] = color.b }
            return
        }
        let inv = UInt32(256 - a), wa = UInt32(a)
        let cr = UInt32(color.r) * wa + 128, cg = UInt32(color.g) * wa + 128, cb = UInt32(color.b) * wa + 128
        if count < 16 {
            for i in 0 ..< count {
                let q = p + 3 * i
                q[0] = UInt8(truncatingIfNeeded: (UInt32(q[0]) * inv + cr) >> 8)
                q[1] = UInt8(truncatingIfNeeded: (UInt32(q[1]) * inv + cg) >> 8)
                q[2] = UInt8(truncatingIfNeeded: (UInt32(q[2]) * inv + cb) >> 8)
            }
            return
        }
        blendLongRun(p, count: count, inv: inv, cr: cr, cg: cg, cb: cb)
    }

    /// Long runs go 16 pixels (48 bytes) at a time against a per-byte colour pattern, so the
    /// inner loop is contiguous and vectorises; the stride-3 form does not.
    static func blendLongRun(_ p: UnsafeMutablePointer<UInt8>, count: Int, inv: UInt32, cr: UInt32, cg: UInt32,
                             cb: UInt32) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 48) { pattern in
            for k in 0 ..< 16 { pattern[3 * k] = cr; pattern[3 * k + 1] = cg; pattern[3 * k + 2] = cb }
            let pat = pattern.baseAddress!
            let n = 3 * count
            var i = 0
            while i + 48 <= n {
                let q = p + i
                for k in 0 ..< 48 { q[k] = UInt8(truncatingIfNeeded: (UInt32(q[k]) * inv + pat[k]) >> 8) }
                i += 48
            }
            while i < n {
                p[i] = UInt8(truncatingIfNeeded: (UInt32(p[i]) * inv + pat[i % 3]) >> 8)
                i += 1
            }
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
