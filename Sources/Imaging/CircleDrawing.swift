extension RGBImage {
    /// Draws a circle outline of `radius` (to the middle of the stroke) around `center`
    /// (pixel-centre coordinates), stroke `thickness` pixels, anti-aliased by coverage
    /// clamp(thickness / 2 + 0.5 - |d - radius|, 0, 1) where d is a pixel centre's distance to
    /// `center`. Clipped to the image.
    public mutating func drawCircle(center: SIMD2<Float>, radius: Float, color: RGBColor,
                                    thickness: Float = 1, opacity: Float = 1) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, radius >= 0, thickness > 0, opacity > 0
        else { return }
        let half = thickness / 2
        let outer = radius + half + 0.5
        let inner = radius - half - 0.5
        rasterizeRing(center: center, outer: outer, inner: inner, color: color) { dist in
            min(1, half + 0.5 - abs(dist - radius)) * opacity
        }
    }

    /// Fills the disc of `radius` around `center`, anti-aliased by coverage
    /// clamp(radius + 0.5 - d, 0, 1). Clipped to the image.
    public mutating func fillCircle(center: SIMD2<Float>, radius: Float, color: RGBColor, opacity: Float = 1) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, radius >= 0, opacity > 0 else { return }
        rasterizeRing(center: center, outer: radius + 0.5, inner: -1, color: color) { dist in
            min(1, radius + 0.5 - dist) * opacity
        }
    }

    /// Visits pixels with centre distance in (inner, outer) from `center` and blends `color`
    /// with the coverage `coverage(distance)` returns.
    private mutating func rasterizeRing(center: SIMD2<Float>, outer: Float, inner: Float, color: RGBColor,
                                        coverage: (Float) -> Float) {
        let w = width, h = height
        let y0 = clampToInt((center.y - outer).rounded(.up), 0, h)
        let y1 = clampToInt((center.y + outer).rounded(.down), -1, h - 1)
        if y0 > y1 || w == 0 { return }
        withPixelBase { base in
            for y in y0 ... y1 {
                let dy = Float(y) - center.y
                let so = outer * outer - dy * dy
                if so < 0 { continue }
                let qo = so.squareRoot()
                let si = inner > 0 ? inner * inner - dy * dy : -1
                let qi: Float = si > 0 ? si.squareRoot() : -1
                let row = base + 3 * y * w
                // Left arc up to the hole, then right arc after it (one span when no hole).
                let spans: [(Float, Float)] = qi > 0
                    ? [(center.x - qo, center.x - qi), (center.x + qi, center.x + qo)]
                    : [(center.x - qo, center.x + qo)]
                for (l, r) in spans {
                    let x0 = clampToInt(l.rounded(.up), 0, w)
                    let x1 = clampToInt(r.rounded(.down), -1, w - 1)
                    if x0 > x1 { continue }
                    for x in x0 ... x1 {
                        let dx = Float(x) - center.x
                        let a = RGBImage.weight(coverage((dx * dx + dy * dy).squareRoot()))
                        RGBImage.blendRun(row + 3 * x, count: 1, color: color, weight: a)
                    }
                }
            }
        }
    }
}
