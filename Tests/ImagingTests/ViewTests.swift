import Imaging
import Testing

@Suite struct ViewTests {
    func ramp(_ w: Int, _ h: Int) -> GrayImage {
        var g = GrayImage(width: w, height: h)
        for y in 0 ..< h { for x in 0 ..< w { g[x, y] = UInt8((x + 10 * y) & 255) } }
        return g
    }

    @Test func viewIndexesRelativeToOriginAndClamps() {
        let g = ramp(20, 10)
        let v = g.view(PixelRect(x: 15, y: 8, width: 10, height: 10))
        #expect(v.rect == PixelRect(x: 15, y: 8, width: 5, height: 2))
        #expect(v[0, 0] == g[15, 8] && v[4, 1] == g[19, 9])
        #expect(v.pixel(clampingX: -3, y: 7) == g[15, 9])
        #expect(Array(v.row(1)) == Array(g.pixels[9 * 20 + 15 ..< 9 * 20 + 20]))
        #expect(g.view(PixelRect(x: 30, y: -5, width: 4, height: 4)).rect.isEmpty)
        #expect(g.view(PixelRect(x: -2, y: -2, width: 4, height: 4)).rect == PixelRect(x: 0, y: 0, width: 2, height: 2))
        let sub = v.view(PixelRect(x: 1, y: 1, width: 9, height: 9))
        #expect(sub.rect == PixelRect(x: 16, y: 9, width: 4, height: 1))
    }

    @Test func croppedCopiesTheRegion() {
        let g = ramp(20, 10)
        let c = g.cropped(to: PixelRect(x: 3, y: 2, width: 4, height: 3))
        #expect(c.width == 4 && c.height == 3)
        for y in 0 ..< 3 { for x in 0 ..< 4 { #expect(c[x, y] == g[x + 3, y + 2]) } }
        #expect(g.cropped(to: PixelRect(x: 50, y: 50, width: 3, height: 3)).pixels.isEmpty)
        var rgb = RGBImage(width: 8, height: 8)
        rgb[5, 6] = (1, 2, 3)
        let rc = rgb.cropped(to: PixelRect(x: 4, y: 4, width: 10, height: 10))
        #expect(rc.width == 4 && rc.height == 4 && rc[1, 2] == (1, 2, 3))
        #expect(rgb.view(PixelRect(x: 4, y: 4, width: 4, height: 4))[1, 2] == RGBColor(r: 1, g: 2, b: 3))
    }

    /// The word-at-a-time luma loop against the per-pixel formula, on sizes that leave 0-3 pixels
    /// for the tail loop and on every channel value in every lane position.
    @Test func lumaMatchesFormulaPerPixel() {
        var state: UInt32 = 12345
        for (w, h) in [(1, 1), (3, 1), (5, 3), (7, 7), (64, 9), (257, 3)] {
            var rgb = RGBImage(width: w, height: h)
            for i in rgb.pixels.indices {
                state = state &* 1664525 &+ 1013904223
                rgb.pixels[i] = UInt8(truncatingIfNeeded: state >> 24)
            }
            var gray = GrayImage(width: 2, height: 2)
            gray.setLuma(of: rgb)
            let expected = (0 ..< w * h).map { i -> UInt8 in
                let r = Double(rgb.pixels[3 * i]), g = Double(rgb.pixels[3 * i + 1]), b = Double(rgb.pixels[3 * i + 2])
                return UInt8((19595 * r + 38470 * g + 7471 * b + 32768) / 65536)
            }
            #expect(gray.width == w && gray.height == h && gray.pixels == expected, "\(w)x\(h)")
        }
    }

    @Test func conversions() {
        var rgb = RGBImage(width: 4, height: 1)
        rgb.pixels = [255, 0, 0, 0, 255, 0, 0, 0, 255, 17, 17, 17]
        let gray = GrayImage(luma: rgb)
        // BT.601: 0.299, 0.587, 0.114 of 255, rounded; gray stays gray.
        #expect(gray.pixels == [76, 150, 29, 17])
        var all = RGBImage(width: 256, height: 1)
        for v in 0 ..< 256 { all[v, 0] = (UInt8(v), UInt8(v), UInt8(v)) }
        #expect(GrayImage(luma: all).pixels == (0 ..< 256).map { UInt8($0) })
        #expect(RGBImage(gray: gray).pixels == [76, 76, 76, 150, 150, 150, 29, 29, 29, 17, 17, 17])
        let rgba = RGBAImage(rgb: rgb, alpha: 9)
        #expect(rgba[2, 0] == (0, 0, 255, 9))
        #expect(RGBImage(dropAlpha: rgba) == rgb)
        #expect(GrayImage(luma: rgba) == gray)
        #expect(RGBAImage(gray: gray)[1, 0] == (150, 150, 150, 255))
        var layer = RGBAImage(width: 2, height: 1)
        layer[0, 0] = (200, 100, 0, 255)
        layer[1, 0] = (200, 100, 0, 0)
        #expect(RGBImage(flattening: layer, over: .blue).pixels == [200, 100, 0, 0, 0, 255])
    }

    @Test func pixelRectAlgebra() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersection(PixelRect(x: 5, y: -5, width: 10, height: 10)) == PixelRect(x: 5, y: 0, width: 5, height: 5))
        #expect(a.intersection(PixelRect(x: 20, y: 20, width: 1, height: 1)).isEmpty)
        #expect(PixelRect(x: 3, y: 3, width: -4, height: 2).width == 0)
        #expect(PixelRect(x0: 2, y0: 3, x1: 5, y1: 9) == PixelRect(x: 2, y: 3, width: 3, height: 6))
        #expect(a.contains(x: 9, y: 0) && !a.contains(x: 10, y: 0))
    }
}
