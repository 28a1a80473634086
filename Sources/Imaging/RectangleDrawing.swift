extension RGBImage {
    /// Fills the whole-pixel rectangle `rect` (clipped to the image) with `color` at `opacity`.
    public mutating func fillRectangle(_ rect: PixelRect, color: RGBColor, opacity: Float = 1) {
        let r = rect.clamped(toWidth: width, height: height)
        let a = RGBImage.weight(opacity)
        if r.isEmpty || a == 0 { return }
        let w = width
        withPixelBase { base in
            for y in r.y ..< r.maxY {
                RGBImage.blendRun(base + 3 * (y * w + r.x), count: r.width, color: color, weight: a)
            }
        }
    }

    /// Draws the outline of `rect` as a band `thickness` pixels wide inside its edges (so the
    /// outline never extends past `rect`), clipped to the image. Each pixel is blended once.
    public mutating func drawRectangle(_ rect: PixelRect, color: RGBColor, thickness: Int = 1, opacity: Float = 1) {
        if rect.isEmpty || thickness <= 0 { return }
        let t = min(thickness, (min(rect.width, rect.height) + 1) / 2)
        fillRectangle(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: t), color: color, opacity: opacity)
        let bottom = min(t, rect.height - t)
        fillRectangle(PixelRect(x: rect.x, y: rect.maxY - bottom, width: rect.width, height: bottom),
                      color: color, opacity: opacity)
        let midY = rect.y + t, midH = rect.height - t - bottom
        if midH > 0 {
            let right = min(t, rect.width - t)
            fillRectangle(PixelRect(x: rect.x, y: midY, width: t, height: midH), color: color, opacity: opacity)
            fillRectangle(PixelRect(x: rect.maxX - right, y: midY, width: right, height: midH), color: color, opacity: opacity)
        }
    }
}
