extension RGBImage {
    /// Composites a straight-alpha RGBA `layer` onto this image with its top-left pixel at
    /// (`x`, `y`) (may be partly or wholly off-image; the overlap is clipped).
    ///
    /// out = (src * A + dst * (255 - A)) / 255 rounded, with A = layer alpha scaled by `opacity`;
    /// fully transparent pixels are skipped and fully opaque ones copied.
    public mutating func composite(_ layer: RGBAImage, atX x: Int, y: Int, opacity: Float = 1) {
        let dstRect = PixelRect(x: x, y: y, width: layer.width, height: layer.height).clamped(toWidth: width, height: height)
        if dstRect.isEmpty || !(opacity > 0) { return }
        let scale = Int32(min(opacity, 1) * 256 + 0.5)   // 0...256
        let w = width, lw = layer.width
        withPixelBase { dst in
            layer.pixels.withUnsafeBufferPointer { src in
                let s = src.baseAddress!
                for yy in dstRect.y ..< dstRect.maxY {
                    let d = dst + 3 * (yy * w + dstRect.x)
                    let l = s + 4 * ((yy - y) * lw + (dstRect.x - x))
                    for i in 0 ..< dstRect.width {
                        var a = Int32(l[4 * i + 3])
                        if scale < 256 { a = (a * scale + 128) >> 8 }
                        if a == 0 { continue }
                        let q = d + 3 * i, p = l + 4 * i
                        if a == 255 { q[0] = p[0]; q[1] = p[1]; q[2] = p[2]; continue }
                        let na = 255 - a
                        q[0] = UInt8(truncatingIfNeeded: (Int32(p[0]) * a + Int32(q[0]) * na + 127) / 255)
                        q[1] = UInt8(truncatingIfNeeded: (Int32(p[1]) * a + Int32(q[1]) * na + 127) / 255)
                        q[2] = UInt8(truncatingIfNeeded: (Int32(p[2]) * a + Int32(q[2]) * na + 127) / 255)
                    }
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
        let dstRect = PixelRect(x: x, y: y, width: mask.width, height: mask.height).clamped(toWidth: width, height: height)
        if dstRect.isEmpty || !(opacity > 0) { return }
        let scale = Int32(min(opacity, 1) * 256 + 0.5)
        let w = width, mw = mask.width
        withPixelBase { dst in
            mask.pixels.withUnsafeBufferPointer { src in
                let s = src.baseAddress!
                for yy in dstRect.y ..< dstRect.maxY {
                    let d = dst + 3 * (yy * w + dstRect.x)
                    let m = s + ((yy - y) * mw + (dstRect.x - x))
                    for i in 0 ..< dstRect.width {
                        let mv = Int32(m[i])
                        // 255 -> 256 so a full mask replaces exactly.
                        let a = ((mv + (mv >> 7)) * scale + 128) >> 8
                        RGBImage.blendRun(d + 3 * i, count: 1, color: color, weight: a)
                    }
                }
            }
        }
    }
}
