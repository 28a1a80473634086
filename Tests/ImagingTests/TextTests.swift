import Imaging
import Testing

@Suite struct TextTests {
    let font = BitmapFont.standard

    @Test func glyphsAreDistinctAndPrintableHaveInk() {
        var seen: [[Bool]: Character] = [:]
        for v in 33 ... 126 {
            let ch = Character(Unicode.Scalar(UInt8(v)))
            var bits: [Bool] = []
            for r in 0 ..< font.glyphHeight { for c in 0 ..< font.glyphWidth { bits.append(font.hasInk(ch, column: c, row: r)) } }
            #expect(bits.contains(true), "\(ch) has no ink")
            #expect(seen[bits] == nil, "\(ch) looks like \(seen[bits].map(String.init) ?? "")")
            seen[bits] = ch
        }
        #expect(!font.hasInk(" ", column: 2, row: 3))
    }

    /// Bounding box of non-background pixels.
    func inkBox(_ img: RGBImage, background: RGBColor = .black) -> PixelRect? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0 ..< img.height {
            for x in 0 ..< img.width where img.color(x: x, y: y) != background {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : PixelRect(x0: x0, y0: y0, x1: x1 + 1, y1: y1 + 1)
    }

    @Test func measureMatchesDrawnExtent() {
        for scale in [1, 2, 3] {
            // 'H' and 'M' fill their whole 5-column cell, rows 0...6; 'g' reaches the descender row.
            let text = "HMg|H"
            let size = font.measure(text, scale: scale)
            #expect(size.width == (5 * 6 - 1) * scale && size.height == 8 * scale)
            var img = RGBImage(width: 200, height: 60)
            let box = img.drawText(text, atX: 7, y: 9, color: .white, scale: scale)
            #expect(box == PixelRect(x: 7, y: 9, width: size.width, height: size.height))
            let ink = inkBox(img)
            #expect(ink == PixelRect(x: 7, y: 9, width: size.width, height: size.height), "scale \(scale)")
        }
        let two = font.measure("ab\nlonger", scale: 2)
        #expect(two.width == (6 * 6 - 1) * 2 && two.height == (9 + 8) * 2)
        #expect(font.measure("", scale: 3) == (0, 0))
    }

    @Test func backgroundAndOutline() {
        var img = RGBImage(width: 100, height: 40, fill: (200, 200, 200))
        let box = img.drawText("Hi", atX: 10, y: 10, color: .white, scale: 2, outline: .red, background: .black,
                               backgroundOpacity: 1, padding: 3)
        let size = font.measure("Hi", scale: 2)
        #expect(box == PixelRect(x: 7, y: 7, width: size.width + 6, height: size.height + 6))
        #expect(inkBox(img, background: RGBColor(gray: 200)) == box)
        #expect(img.color(x: 10, y: 10) == .white)       // H's top-left stroke
        #expect(img.color(x: 9, y: 10) == .red)          // its outline
        #expect(img.color(x: 7, y: 7) == .black)          // padding
    }

    @Test func differentTextDrawsDifferently() {
        var a = RGBImage(width: 60, height: 12), b = RGBImage(width: 60, height: 12)
        a.drawText("0O1l", atX: 1, y: 1, color: .white)
        b.drawText("O0l1", atX: 1, y: 1, color: .white)
        #expect(a != b)
        var q = RGBImage(width: 10, height: 10), unknown = RGBImage(width: 10, height: 10)
        q.drawText("?", atX: 1, y: 1, color: .white)
        unknown.drawText("é", atX: 1, y: 1, color: .white)
        #expect(q == unknown)
    }
}
