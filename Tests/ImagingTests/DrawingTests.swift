import Foundation
import Imaging
import Testing

@Suite struct DrawingTests {
    let black = RGBColor.black

    @Test func lineSetsEndpointsAndEveryColumn() {
        for aa in [true, false] {
            var img = RGBImage(width: 40, height: 30)
            img.drawLine(from: SIMD2(2, 3), to: SIMD2(30, 17), color: .white, antialiased: aa)
            #expect(img.color(x: 2, y: 3) == .white)
            #expect(img.color(x: 30, y: 17) == .white)
            for x in 2 ... 30 {
                // The pixel nearest the line in each column is drawn at >= half coverage.
                let y = Int((3 + Double(x - 2) * 14 / 28).rounded())
                #expect(img.color(x: x, y: y).r >= 128, "aa=\(aa) x=\(x)")
            }
            // Nothing far from the segment is touched.
            #expect(img.color(x: 30, y: 3) == black && img.color(x: 2, y: 17) == black)
            #expect(img.color(x: 0, y: 3) == black && img.color(x: 33, y: 17) == black)
        }
    }

    @Test func horizontalOnePixelLineIsCrispAndThickLineHasWidth() {
        var img = RGBImage(width: 20, height: 20)
        img.drawLine(from: SIMD2(3, 5), to: SIMD2(15, 5), color: .red)
        #expect(img.count { $0 != .black } == 13)
        #expect((3 ... 15).allSatisfy { img.color(x: $0, y: 5) == .red })
        var thick = RGBImage(width: 40, height: 40)
        thick.drawLine(from: SIMD2(5, 20), to: SIMD2(35, 20), color: .white, thickness: 5)
        #expect((18 ... 22).allSatisfy { thick.color(x: 20, y: $0) == .white })
        #expect(thick.color(x: 20, y: 17) == black && thick.color(x: 20, y: 23) == black)
    }

    @Test func drawingOffImageNeverCrashes() {
        var img = RGBImage(width: 16, height: 9)
        let far: [SIMD2<Float>] = [SIMD2(-1e7, -5), SIMD2(1e7, 3e6), SIMD2(-50, 200), SIMD2(.nan, 1), SIMD2(.infinity, 2)]
        for a in far {
            for b in far {
                img.drawLine(from: a, to: b, color: .green, thickness: 3)
                img.fillPolygon([a, b, SIMD2(8, 4)], color: .blue)
            }
            img.drawCircle(center: a, radius: 1e6, color: .red)
            img.fillCircle(center: a, radius: 30, color: .red)
        }
        img.drawLine(from: SIMD2(-100, 4), to: SIMD2(100, 4), color: .yellow)
        #expect((0 ..< 16).allSatisfy { img.color(x: $0, y: 4) == .yellow })
        // Far endpoints are clipped first, so precision holds: a crisp 1-pixel column.
        img.drawLine(from: SIMD2(7, -3e7), to: SIMD2(7, 5e7), color: .cyan)
        #expect((0 ..< 9).allSatisfy { img.color(x: 7, y: $0) == .cyan })
        #expect((0 ..< 9).allSatisfy { img.color(x: 6, y: $0) != .cyan && img.color(x: 8, y: $0) != .cyan })
        img.fillRectangle(PixelRect(x: -5, y: -5, width: 100, height: 3), color: .white)
        img.drawRectangle(PixelRect(x: 10, y: 5, width: 50, height: 50), color: .white, thickness: 3)
        img.composite(RGBAImage(width: 40, height: 40), atX: -20, y: -20)
        img.composite(RGBAImage(width: 4, height: 4), atX: 1000, y: 3)
        img.drawText("off image", atX: -30, y: 5, color: .white, scale: 3, outline: .black, background: .gray)
        img.drawText("far", atX: Int.max / 4, y: -Int.max / 4, color: .white)
        var empty = RGBImage(width: 0, height: 0)
        empty.drawLine(from: SIMD2(0, 0), to: SIMD2(5, 5), color: .red)
        empty.fillPolygon([SIMD2(0, 0), SIMD2(5, 0), SIMD2(0, 5)], color: .red)
        empty.drawText("x", atX: 0, y: 0, color: .red)
    }

    /// Coverage-weighted painted area (white on black, in pixels).
    func paintedArea(_ img: RGBImage) -> Double {
        var s = 0
        for i in stride(from: 0, to: img.pixels.count, by: 3) { s += Int(img.pixels[i]) }
        return Double(s) / 255
    }

    @Test func polygonAreaMatchesShoelace() {
        let star: [SIMD2<Float>] = (0 ..< 10).map { i in
            let r: Float = i % 2 == 0 ? 40 : 17
            let t = Float(i) * Float.pi / 5
            return SIMD2(60 + r * sin(t), 55 - r * cos(t))
        }
        var shoelace: Float = 0
        for i in 0 ..< star.count {
            let p = star[i], q = star[(i + 1) % star.count]
            shoelace += p.x * q.y - q.x * p.y
        }
        let area = Double(abs(shoelace) / 2)
        for aa in [true, false] {
            var img = RGBImage(width: 120, height: 110)
            img.fillPolygon(star, color: .white, antialiased: aa)
            #expect(abs(paintedArea(img) - area) / area < 0.02, "aa=\(aa)")
        }
        // A triangle partly off-image: painted area equals the visible part.
        var img = RGBImage(width: 50, height: 50)
        img.fillPolygon([SIMD2(-50, -0.5), SIMD2(49.5, -0.5), SIMD2(49.5, 99.5)], color: .white)
        // Visible: x in [-0.5, 49.5], y in [-0.5, 49.5], under the diagonal y + 0.5 <= (x + 50) * 100 / 99.5 ... computed numerically.
        var expected = 0.0
        let steps = 2000
        for i in 0 ..< steps {
            let x = -0.5 + (Double(i) + 0.5) * 50 / Double(steps)
            let yMax = -0.5 + (x + 50) * 100 / 99.5
            expected += max(0, min(yMax, 49.5) + 0.5) * 50 / Double(steps)
        }
        #expect(abs(paintedArea(img) - expected) / expected < 0.02)
    }

    @Test func fillRulesDiffer() {
        // Two overlapping squares with the same orientation as one polygon through a bridge:
        // a pentagram is simpler — its centre is inside for non-zero and outside for even-odd.
        let pts: [SIMD2<Float>] = (0 ..< 5).map { i in
            let t = Float(i * 2) * 2 * Float.pi / 5
            return SIMD2(50 + 40 * sin(t), 50 - 40 * cos(t))
        }
        var nz = RGBImage(width: 100, height: 100), eo = RGBImage(width: 100, height: 100)
        nz.fillPolygon(pts, color: .white, rule: .nonZero)
        eo.fillPolygon(pts, color: .white, rule: .evenOdd)
        #expect(nz.color(x: 50, y: 52) == .white)
        #expect(eo.color(x: 50, y: 52) == .black)
        #expect(eo.color(x: 50, y: 15) == .white)   // a point of the star is inside for both
    }

    @Test func polygonOpacityBlends() {
        var img = RGBImage(width: 20, height: 20, fill: (200, 0, 100))
        img.fillPolygon([SIMD2(-1, -1), SIMD2(30, -1), SIMD2(30, 30), SIMD2(-1, 30)], color: RGBColor(r: 0, g: 200, b: 100), opacity: 0.5)
        #expect(img.color(x: 10, y: 10) == RGBColor(r: 100, g: 100, b: 100))
    }

    @Test func circles() {
        var img = RGBImage(width: 100, height: 100)
        img.fillCircle(center: SIMD2(50, 50), radius: 30, color: .white)
        #expect(abs(paintedArea(img) - Double.pi * 900) / (Double.pi * 900) < 0.01)
        #expect(img.color(x: 50, y: 50) == .white && img.color(x: 50, y: 81) == black)
        var ring = RGBImage(width: 100, height: 100)
        ring.drawCircle(center: SIMD2(50, 50), radius: 30, color: .white, thickness: 2)
        #expect(ring.color(x: 50, y: 50) == black)
        #expect(ring.color(x: 80, y: 50) == .white && ring.color(x: 50, y: 20) == .white)
        // Annulus area 2 * pi * r * thickness.
        #expect(abs(paintedArea(ring) - 2 * Double.pi * 30 * 2) / (2 * Double.pi * 60) < 0.02)
    }

    @Test func rectangles() {
        var img = RGBImage(width: 20, height: 20)
        img.drawRectangle(PixelRect(x: 2, y: 3, width: 10, height: 7), color: .white, thickness: 2)
        // Outline band of width 2 inside a 10x7 box: 70 - 6*3 = 52 pixels.
        #expect(img.count { $0 == .white } == 52)
        #expect(img.color(x: 2, y: 3) == .white && img.color(x: 11, y: 9) == .white && img.color(x: 12, y: 9) == black)
        #expect(img.color(x: 6, y: 6) == black)
        var half = RGBImage(width: 4, height: 4, fill: (100, 100, 100))
        half.fillRectangle(PixelRect(x: 1, y: 1, width: 2, height: 2), color: .white, opacity: 0.5)
        #expect(half.color(x: 1, y: 1) == RGBColor(gray: 178) && half.color(x: 0, y: 0) == RGBColor(gray: 100))
    }

    @Test func compositeRGBALayer() {
        var img = RGBImage(width: 6, height: 4, fill: (100, 50, 0))
        var layer = RGBAImage(width: 3, height: 2)
        layer[0, 0] = (255, 255, 255, 255)
        layer[1, 0] = (255, 255, 255, 0)
        layer[2, 0] = (0, 150, 255, 128)
        layer[0, 1] = (10, 20, 30, 51)
        img.composite(layer, atX: 4, y: 1)   // right column clipped
        #expect(img.color(x: 4, y: 1) == .white)
        #expect(img.color(x: 5, y: 1) == RGBColor(r: 100, g: 50, b: 0))
        // (10 * 51 + 100 * 204) / 255 = 82, (20*51 + 50*204)/255 = 44, (30*51)/255 = 6
        #expect(img.color(x: 4, y: 2) == RGBColor(r: 82, g: 44, b: 6))
        var img2 = RGBImage(width: 3, height: 1, fill: (100, 50, 0))
        img2.composite(layer, atX: 0, y: 0)
        // (0*128 + 100*127)/255 = 49.8 -> 50; (150*128 + 50*127)/255 = 100.2 -> 100; 255*128/255 = 128
        #expect(img2.color(x: 2, y: 0) == RGBColor(r: 50, g: 100, b: 128))
        var img3 = RGBImage(width: 1, height: 1)
        img3.composite(RGBAImage(rgb: RGBImage(width: 1, height: 1, fill: (200, 200, 200))), atX: 0, y: 0, opacity: 0.5)
        #expect(img3.color(x: 0, y: 0) == RGBColor(gray: 100))
        var masked = RGBImage(width: 2, height: 1)
        masked.blend(.white, mask: GrayImage(width: 2, height: 1, pixels: [255, 0]), atX: 0, y: 0)
        #expect(masked.color(x: 0, y: 0) == .white && masked.color(x: 1, y: 0) == black)
    }

    @Test func compositeMatchesReferenceFormulaAcrossBlocks() {
        var rng = TestRandom(seed: 31)
        let base = RGBImage(width: 50, height: 7, pixels: rng.bytes(50 * 7 * 3))
        var layer = RGBAImage(width: 37, height: 5, pixels: rng.bytes(37 * 5 * 4))
        // Transparent stretches (whole 8-pixel blocks and partial ones) between opaque pixels.
        for y in 0 ..< 5 { for x in 0 ..< 37 where (x / 5 + y) % 3 == 0 { layer.pixels[4 * (y * 37 + x) + 3] = 0 } }
        for opacity: Float in [1, 0.6] {
            var img = base
            img.composite(layer, atX: 9, y: 1, opacity: opacity)
            let scale = Int(opacity * 256 + 0.5)
            for y in 0 ..< 7 {
                for x in 0 ..< 50 {
                    let lx = x - 9, ly = y - 1
                    for k in 0 ..< 3 {
                        let d = Int(base.pixels[3 * (y * 50 + x) + k])
                        var expected = d
                        if lx >= 0 && lx < 37 && ly >= 0 && ly < 5 {
                            let p = 4 * (ly * 37 + lx)
                            let a = (Int(layer.pixels[p + 3]) * scale + 128) >> 8
                            expected = Int((Double(Int(layer.pixels[p + k]) * a + d * (255 - a)) / 255).rounded())
                        }
                        #expect(Int(img.pixels[3 * (y * 50 + x) + k]) == expected, "x=\(x) y=\(y) k=\(k)")
                    }
                }
            }
        }
    }

    @Test func longBlendRunsMatchShortOnes() {
        var rng = TestRandom(seed: 33)
        let base = RGBImage(width: 53, height: 3, pixels: rng.bytes(53 * 3 * 3))
        let c = RGBColor(r: 250, g: 3, b: 128)
        var wide = base
        wide.fillRectangle(PixelRect(x: 0, y: 0, width: 53, height: 3), color: c, opacity: 0.3)
        let a = Int(Float(0.3) * 256 + 0.5)
        for i in 0 ..< 53 * 3 {
            let channel = [Int(c.r), Int(c.g), Int(c.b)]
            for k in 0 ..< 3 {
                let d = Int(base.pixels[3 * i + k])
                #expect(Int(wide.pixels[3 * i + k]) == (d * (256 - a) + channel[k] * a + 128) >> 8)
            }
        }
    }
}
