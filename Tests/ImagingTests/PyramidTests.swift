import Imaging
import Testing

@Suite struct PyramidTests {
    @Test func factorTwoSizesScalesAndMeans() {
        var rng = TestRandom(seed: 1)
        let base = GrayImage(width: 640, height: 480, pixels: rng.bytes(640 * 480))
        let p = ImagePyramid(base, factor: 2, minSize: 20)
        #expect(p.levels.map { $0.image.width } == [640, 320, 160, 80, 40])
        #expect(p.levels.map { $0.image.height } == [480, 240, 120, 60, 30])
        #expect(p.levels.map { $0.nominalScale } == [1, 0.5, 0.25, 0.125, 0.0625])
        #expect(p[2].scaleX == 0.25 && p[2].scaleY == 0.25)
        #expect(p[1].image == base.resized(width: 320, height: 240, method: .area))
        // Pixel-centre mapping: level-0 pixel centres 0 and 1 straddle level-1 pixel 0's centre.
        #expect(p[1].fromBase(SIMD2(0.5, 0.5)) == SIMD2(0, 0))
        #expect(p[3].toBase(SIMD2(0, 0)) == SIMD2(3.5, 3.5))
        #expect(p[3].toBase(p[3].fromBase(SIMD2(100, 7))) == SIMD2(100, 7))
    }

    @Test func fractionalFactorAndLimits() {
        let base = GrayImage(width: 200, height: 100, fill: 50)
        let f = Float(2).squareRoot()
        let p = ImagePyramid(base, factor: f, minSize: 24)
        // 100 / sqrt(2)^k >= 24 for k <= 4.
        #expect(p.count == 5)
        #expect(p[2].image.width == 100 && p[2].image.height == 50)
        #expect(p[1].image.width == 141 && p[1].image.height == 71)
        #expect(abs(p[1].nominalScale - 1 / f) < 1e-6)
        #expect(p[1].scaleX == 141 / 200 && p[1].scaleY == 71 / 100)
        for level in p.levels { #expect(level.image.pixels.allSatisfy { $0 == 50 }) }
        #expect(ImagePyramid(base, factor: 2, minSize: 1, maxLevels: 3).count == 3)
        #expect(ImagePyramid(GrayImage(width: 10, height: 10), factor: 2, minSize: 16).count == 1)
    }
}
