import Imaging
import Testing

@Suite struct ResizeTests {
    static let sizes: [(Int, Int, Int, Int)] = [
        (64, 48, 32, 24), (64, 48, 128, 96), (37, 23, 11, 7), (100, 80, 37, 53), (5, 5, 17, 3), (1, 1, 4, 4),
        (9, 1, 4, 1), (640, 360, 213, 120),
    ]

    @Test(arguments: [ResizeMethod.bilinear, .area])
    func constantImageStaysConstant(method: ResizeMethod) {
        for (sw, sh, tw, th) in Self.sizes {
            for v: UInt8 in [0, 1, 128, 254, 255] {
                let g = GrayImage(width: sw, height: sh, fill: v).resized(width: tw, height: th, method: method)
                #expect(g.width == tw && g.height == th)
                #expect(g.pixels.allSatisfy { $0 == v }, "gray \(sw)x\(sh)->\(tw)x\(th) value \(v)")
                let c = RGBImage(width: sw, height: sh, fill: (v, 255 - v, 77)).resized(width: tw, height: th, method: method)
                #expect((0 ..< tw * th).allSatisfy { c.pixels[3 * $0] == v && c.pixels[3 * $0 + 1] == 255 - v && c.pixels[3 * $0 + 2] == 77 })
            }
        }
    }

    @Test func areaHalvingIsExactTwoByTwoMean() {
        var rng = TestRandom(seed: 3)
        let g = GrayImage(width: 64, height: 38, pixels: rng.bytes(64 * 38))
        let h = g.resized(width: 32, height: 19, method: .area)
        for y in 0 ..< 19 {
            for x in 0 ..< 32 {
                let s = Int(g[2 * x, 2 * y]) + Int(g[2 * x + 1, 2 * y]) + Int(g[2 * x, 2 * y + 1]) + Int(g[2 * x + 1, 2 * y + 1])
                #expect(Int(h[x, y]) == (s + 2) / 4, "at \(x),\(y)")
            }
        }
        let c = RGBImage(width: 10, height: 6, pixels: rng.bytes(180))
        let ch = c.resized(width: 5, height: 3, method: .area)
        for y in 0 ..< 3 {
            for x in 0 ..< 5 {
                for k in 0 ..< 3 {
                    var s = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { s += Int(c.pixels[3 * ((2 * y + dy) * 10 + 2 * x + dx) + k]) }
                    #expect(Int(ch.pixels[3 * (y * 5 + x) + k]) == (s + 2) / 4)
                }
            }
        }
    }

    @Test func areaNonIntegerFactorPreservesMeanAndRange() {
        var rng = TestRandom(seed: 11)
        let g = GrayImage(width: 90, height: 70, pixels: rng.bytes(90 * 70))
        let h = g.resized(width: 36, height: 28, method: .area)   // factor 2.5
        let meanIn = Double(g.pixels.reduce(0) { $0 + Int($1) }) / Double(g.pixels.count)
        let meanOut = Double(h.pixels.reduce(0) { $0 + Int($1) }) / Double(h.pixels.count)
        #expect(abs(meanIn - meanOut) < 0.6)
        // Output pixel (0,0) covers source [0, 2.5)^2: weights 1, 1, 0.5 per axis.
        var acc = 0.0
        let w: [Double] = [1, 1, 0.5]
        for y in 0 ..< 3 { for x in 0 ..< 3 { acc += w[x] * w[y] * Double(g[x, y]) } }
        #expect(abs(Double(h[0, 0]) - acc / 6.25) <= 0.75)
        // Extreme shrink: every output pixel is the mean of its 1000/7 source pixels.
        let wide = GrayImage(width: 1000, height: 1, pixels: rng.bytes(1000))
        let seven = wide.resized(width: 7, height: 1, method: .area)
        for x in 0 ..< 7 {
            let a = Double(x) * 1000 / 7, b = Double(x + 1) * 1000 / 7
            var sum = 0.0
            for j in Int(a) ..< min(1000, Int(b.rounded(.up))) {
                sum += max(0, min(b, Double(j + 1)) - max(a, Double(j))) * Double(wide[j, 0])
            }
            #expect(abs(Double(seven[x, 0]) - sum / (b - a)) <= 1, "x=\(x)")
        }
        let one = wide.resized(width: 1, height: 1, method: .area)
        #expect(abs(Double(one[0, 0]) - Double(wide.pixels.reduce(0) { $0 + Int($1) }) / 1000) <= 1)
    }

    @Test func bilinearUpsampleOfRampIsLinearWithPixelCentrePhase() {
        // I(x) = 4x. Scale 2: output x samples input at (x + 0.5) / 2 - 0.5 = x/2 - 0.25.
        var g = GrayImage(width: 60, height: 3)
        for y in 0 ..< 3 { for x in 0 ..< 60 { g[x, y] = UInt8(4 * x) } }
        let up = g.resized(width: 120, height: 6, method: .bilinear)
        for y in 0 ..< 6 {
            #expect(up[0, y] == 0)     // sample point -0.25 clamps to pixel 0
            #expect(up[119, y] == 236) // 59.25 clamps to pixel 59
            for x in 1 ..< 119 { #expect(up[x, y] == UInt8(2 * x - 1), "x=\(x)") }
        }
        // Vertical ramp, scale 4: output y samples (y + 0.5) / 4 - 0.5.
        var v = GrayImage(width: 2, height: 50)
        for y in 0 ..< 50 { v[0, y] = UInt8(5 * y); v[1, y] = UInt8(5 * y) }
        let up4 = v.resized(width: 2, height: 200, method: .bilinear)
        for y in 2 ..< 197 {
            let expected = 5 * ((Double(y) + 0.5) / 4 - 0.5)
            #expect(abs(Double(up4[1, y]) - expected) <= 0.5 + 1e-9, "y=\(y)")
        }
    }

    @Test func bilinearDownsampleByTwoAveragesPairs() {
        // Sample point 2x + 0.5: midway between source pixels 2x and 2x + 1.
        var rng = TestRandom(seed: 5)
        let g = GrayImage(width: 40, height: 1, pixels: rng.bytes(40))
        let d = g.resized(width: 20, height: 1, method: .bilinear)
        for x in 0 ..< 20 { #expect(Int(d[x, 0]) == (Int(g[2 * x, 0]) + Int(g[2 * x + 1, 0]) + 1) / 2) }
    }

    @Test func resizerReusesTargetAndResizesViews() {
        var rng = TestRandom(seed: 9)
        let g = GrayImage(width: 50, height: 40, pixels: rng.bytes(2000))
        let r = ImageResizer(sourceWidth: 20, sourceHeight: 10, targetWidth: 10, targetHeight: 5, method: .area)
        var out = GrayImage(width: 99, height: 99)
        let rect = PixelRect(x: 7, y: 13, width: 20, height: 10)
        r.resize(g.view(rect), into: &out)
        #expect(out.width == 10 && out.height == 5)
        #expect(out == g.cropped(to: rect).resized(width: 10, height: 5, method: .area))
        #expect(g.resized(width: 0, height: 5, method: .bilinear).pixels.isEmpty)
        #expect(g.resized(scale: 0.5, method: .area).width == 25)
    }

    @Test func rgbMatchesPerChannelGray() {
        var rng = TestRandom(seed: 21)
        let c = RGBImage(width: 31, height: 17, pixels: rng.bytes(31 * 17 * 3))
        for method in [ResizeMethod.bilinear, .area] {
            let out = c.resized(width: 13, height: 40, method: method)
            for k in 0 ..< 3 {
                let plane = GrayImage(width: 31, height: 17, pixels: (0 ..< 31 * 17).map { c.pixels[3 * $0 + k] })
                let p = plane.resized(width: 13, height: 40, method: method)
                #expect((0 ..< 13 * 40).allSatisfy { out.pixels[3 * $0 + k] == p.pixels[$0] })
            }
        }
    }

    @Test func sampleIsBilinearAndClamped() {
        var g = GrayImage(width: 3, height: 2)
        g.pixels = [0, 100, 200, 50, 150, 250]
        #expect(g.sample(x: 1, y: 0) == 100)
        #expect(g.sample(x: 0.5, y: 0) == 50)
        #expect(g.sample(x: 1.5, y: 0.5) == 175)
        #expect(abs(g.sample(x: 0.25, y: 0.75) - (25 * 0.25 + 75 * 0.75)) < 1e-4)
        #expect(g.sample(x: -10, y: -3) == 0)
        #expect(g.sample(x: 99, y: 99) == 250)
        #expect(g.sample(x: 2, y: 1) == 250)
        #expect(g.sample(x: .nan, y: .infinity) == 50)
        #expect(g.sample(SIMD2(1, 1)) == 150)
        #expect(GrayImage(width: 0, height: 0).sample(x: 0, y: 0) == 0)
        var rng = TestRandom(seed: 2)
        let big = GrayImage(width: 33, height: 21, pixels: rng.bytes(33 * 21))
        let pts: [SIMD2<Float>] = (0 ..< 500).map { _ in
            SIMD2(Float(rng.next() % 4000) / 100 - 3, Float(rng.next() % 3000) / 100 - 3)
        }
        var values: [Float] = []
        big.sample(pts, into: &values)
        #expect(values == pts.map { big.sample($0) })
    }
}
