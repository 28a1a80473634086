extension RGBImage {
    /// Composites a straight-alpha RGBA `layer` onto this image with its top-left pixel at
    /// (`x`, `y`) (may be partly or wholly off-image; the overlap is clipped).
    ///
    /// out = (src * A + dst * (255 - A)) / 255 rounded, with A = layer alpha scaled by `opacity`
    /// (A = 255 copies the layer pixel, A = 0 keeps the image pixel).
    public mutating func composite(_ layer: RGBAImage, atX x: Int, y: Int, opacity: Float = 1) {
        if !(opacity > 0) { return }
        let scale = UInt32(min(opacity, 1) * 256 + 0.5)   // 0...256
        layer.pixels.withUnsafeBufferPointer { src in
            forEachOverlapRow(layerWidth: layer.width, layerHeight: layer.height, atX: x, y: y) { d, first, n in
                let l = src.baseAddress! + 4 * first
                // Overlay layers are mostly transparent: blocks of 8 fully transparent pixels
                // are skipped with one test; other blocks are blended branch-free, with
                // x / 255 rounded computed as (t + (t >> 8)) >> 8, t = x + 128 (exact for
                // 0 <= x <= 255 * 255).
                var i0 = 0
                while i0 < n {
                    let i1 = min(n, i0 + 8)
                    var any: UInt8 = 0
                    for i in i0 ..< i1 { any |= l[4 * i + 3] }
                    if any != 0 {
                        for i in i0 ..< i1 {
                            let a = (UInt32(l[4 * i + 3]) * scale + 128) >> 8
                            let na = 255 - a
                            let q = d + 3 * i, p = l + 4 * i
                            let r = UInt32(p[0]) * a + UInt32(q[0]) * na + 128
                            let g = UInt32(p[1]) * a + UInt32(q[1]) * na + 128
                            let b = UInt32(p[2]) * a + UInt32(q[2]) * na + 128
                            q[0] = UInt8(truncatingIfNeeded: (r + (r >> 8)) >> 8)
                            q[1] = UInt8(truncatingIfNeeded: (g + (g >> 8)) >> 8)
                            q[2] = UInt8(truncatingIfNeeded: (b + (b >> 8)) >> 8)
                        }
                    }
                    i0 = i1
                }
            }
        }
    }

    /// Blends `color` over the whole image at `opacity` (a tint or fade).
    public mutating func blend(_ color: RGBColor, opacity: Float) {
        fillRectangle(bounds, color: color, opacity: opacity)
    }

    /// Blends `color` onto this image through a gray `mask` (0 = untouched, 255 = full `color`)
    /// placed with its top-left pixel at (`x`, `y`), clipped. Useful for stencils and soft shapes.
    public mutating func blend(_ color: RGBColor, mask: GrayImage, atX x: Int, y: Int, opacity: Float = 1) {
        if !(opacity > 0) { return }
        let scale = Int32(min(opacity, 1) * 256 + 0.5)
        mask.pixels.withUnsafeBufferPointer { src in
            forEachOverlapRow(layerWidth: mask.width, layerHeight: mask.height, atX: x, y: y) { d, first, n in
                let m = src.baseAddress! + first
                for i in 0 ..< n {
                    let mv = Int32(m[i])
                    // 255 -> 256 so a full mask replaces exactly.
                    let a = ((mv + (mv >> 7)) * scale + 128) >> 8
                    RGBImage.blendRun(d + 3 * i, count: 1, color: color, weight: a)
                }
            }
        }
    }

    /// For each row where a `layerWidth x layerHeight` layer placed with its top-left pixel at
    /// (`x`, `y`) overlaps this image: the image row's first overlapped byte, the index of the
    /// layer's first overlapping pixel, and the overlap's width in pixels. Nothing runs without overlap.
    @inline(__always)
    mutating func forEachOverlapRow(layerWidth: Int, layerHeight: Int, atX x: Int, y: Int,
                                    _ body: (UnsafeMutablePointer<UInt8>, Int, Int) -> Void) {
        let overlap = PixelRect(x: x, y: y, width: layerWidth, height: layerHeight).clamped(toWidth: width, height: height)
        if overlap.isEmpty { return }
        let w = width
        withPixelBase { dst in
            for yy in overlap.y ..< overlap.maxY {
                body(dst + 3 * (yy * w + overlap.x), (yy - y) * layerWidth + (overlap.x - x), overlap.width)
            }
        }
    }
}
