extension RGBImage {
    /// Draws `text` with its first glyph's top-left corner at (`x`, `y`), each font pixel a
    /// `scale` x `scale` block, clipped to the image. "\n" starts a new line.
    ///
    /// For legibility over video: `outline` draws a `max(1, scale / 2)`-pixel border of that
    /// colour around every stroke, and `background` fills the measured text box grown by
    /// `padding` pixels at `backgroundOpacity` before the text is drawn. Returns the rectangle the
    /// text (with its padding when there is a background) occupies, unclipped.
    @discardableResult
    public mutating func drawText(_ text: String, atX x: Int, y: Int, color: RGBColor, scale: Int = 1,
                                  font: BitmapFont = .standard, outline: RGBColor? = nil,
                                  background: RGBColor? = nil, backgroundOpacity: Float = 0.6,
                                  padding: Int = 2, opacity: Float = 1) -> PixelRect {
        let s = max(1, scale)
        let size = font.measure(text, scale: s)
        var box = PixelRect(x: x, y: y, width: size.width, height: size.height)
        if let bg = background {
            box = PixelRect(x: x - padding, y: y - padding, width: size.width + 2 * padding,
                            height: size.height + 2 * padding)
            fillRectangle(box, color: bg, opacity: backgroundOpacity)
        }
        if let o = outline {
            let t = max(1, s / 2)
            // Dilate each stroke by t in every direction; overlapping blocks would double-blend,
            // so the outline is always opaque.
            drawGlyphBlocks(text, x: x, y: y, scale: s, font: font, grow: t, color: o, opacity: 1)
        }
        drawGlyphBlocks(text, x: x, y: y, scale: s, font: font, grow: 0, color: color, opacity: opacity)
        return box
    }

    private mutating func drawGlyphBlocks(_ text: String, x: Int, y: Int, scale s: Int, font: BitmapFont, grow: Int,
                                          color: RGBColor, opacity: Float) {
        var penX = x, penY = y
        let w = font.glyphWidth
        for scalar in text.unicodeScalars {
            if scalar == "\n" { penX = x; penY += font.lineHeight * s; continue }
            // Skip glyphs wholly outside the image cheaply (long strings scrolling off-screen).
            if penX + w * s + grow >= 0 && penX - grow < width && penY + font.glyphHeight * s + grow >= 0
                && penY - grow < height {
                for (r, bits) in font.glyph(scalar).enumerated() where bits != 0 {
                    for c in 0 ..< w where bits >> UInt8(w - 1 - c) & 1 == 1 {
                        fillRectangle(PixelRect(x: penX + c * s - grow, y: penY + r * s - grow,
                                                width: s + 2 * grow, height: s + 2 * grow),
                                      color: color, opacity: opacity)
                    }
                }
            }
            penX += font.advance * s
        }
    }
}
