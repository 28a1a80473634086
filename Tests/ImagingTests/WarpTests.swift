import Foundation
import Imaging
import Testing

@Suite struct WarpTests {
    @Test func affineAlgebra() {
        let m = Affine2D.similarity(scale: 2, angle: 0.3, translation: SIMD2(5, -7))
        let p = SIMD2<Float>(3, 4)
        let q = m.apply(p)
        #expect(abs(q.x - (2 * (3 * cos(0.3) - 4 * sin(0.3)) + 5)) < 1e-4)
        #expect(abs(q.y - (2 * (3 * sin(0.3) + 4 * cos(0.3)) - 7)) < 1e-4)
        let back = m.inverted!.apply(q)
        #expect(abs(back.x - p.x) < 1e-4 && abs(back.y - p.y) < 1e-4)
        let twice = m.concatenating(m).apply(p), stepwise = m.apply(m.apply(p))
        #expect(abs(twice.x - stepwise.x) < 1e-3 && abs(twice.y - stepwise.y) < 1e-3)
        #expect(Affine2D(a: 1, b: 2, tx: 0, c: 2, d: 4, ty: 0).inverted == nil)
        for angle in stride(from: -20.0, through: 20.0, by: 0.37) {
            let r = Affine2D.similarity(scale: 1, angle: Float(angle), translation: .zero)
            #expect(abs(r.a - Float(cos(angle))) < 1e-6 && abs(r.c - Float(sin(angle))) < 1e-6, "angle \(angle)")
        }
    }

    @Test func warpWithScaleAndShiftMatchesBilinearResize() {
        var rng = TestRandom(seed: 17)
        let g = GrayImage(width: 40, height: 30, pixels: rng.bytes(1200))
        // Target pixel x samples source (x + 0.5) * 2 - 0.5 = 2x + 0.5: the bilinear 2x shrink.
        let m = Affine2D(a: 2, b: 0, tx: 0.5, c: 0, d: 2, ty: 0.5)
        let w = g.warped(width: 20, height: 15, sourceFromTarget: m)
        let r = g.resized(width: 20, height: 15, method: .bilinear)
        #expect(zip(w.pixels, r.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        let rgb = RGBImage(width: 40, height: 30, pixels: rng.bytes(3600))
        let wr = rgb.warped(width: 20, height: 15, sourceFromTarget: m)
        let rr = rgb.resized(width: 20, height: 15, method: .bilinear)
        #expect(zip(wr.pixels, rr.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func rotationByQuarterTurnPermutesPixels() {
        var rng = TestRandom(seed: 19)
        let g = GrayImage(width: 9, height: 5, pixels: rng.bytes(45))
        // Target (x, y) in a 5x9 image takes source (y, 4 - x): a quarter turn.
        let m = Affine2D(a: 0, b: 1, tx: 0, c: -1, d: 0, ty: 4)
        let t = g.warped(width: 5, height: 9, sourceFromTarget: m)
        for y in 0 ..< 9 { for x in 0 ..< 5 { #expect(t[x, y] == g[y, 4 - x]) } }
    }

    @Test func markersDrawAtThePoint() {
        var img = RGBImage(width: 30, height: 30)
        img.drawMarkers([SIMD2(5, 5), SIMD2(20, 20)], color: .green, size: 5, style: .plus)
        #expect(img.color(x: 5, y: 5) == .green && img.color(x: 7, y: 5) == .green && img.color(x: 5, y: 3) == .green)
        #expect(img.color(x: 7, y: 7) == .black)
        img.drawMarker(at: SIMD2(20, 5), color: .red, size: 6, style: .cross)
        #expect(img.color(x: 20, y: 5) == .red && img.color(x: 22, y: 7) == .red && img.color(x: 22, y: 5) == .black)
        img.drawMarker(at: SIMD2(10, 20), color: .white, size: 4, style: .square)
        #expect(img.color(x: 8, y: 18) == .white && img.color(x: 10, y: 20) == .black)
        img.drawMarker(at: SIMD2(-100, 3), color: .white, style: .dot)
    }
}
