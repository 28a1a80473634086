import Landmarks
import Testing

@Suite struct SimilarityTransformTests {
    @Test func fitRecoversAKnownSimilarityAndItsInverse() {
        let t = SimilarityTransform(a: 1.5 * Float(0.8), b: 1.5 * Float(0.6), tx: 12, ty: -7)
        let src: [SIMD2<Float>] = [SIMD2(0, 0), SIMD2(10, 0), SIMD2(3, 8), SIMD2(-4, 5)]
        let dst = src.map { t.apply($0) }
        let fit = SimilarityTransform.fit(from: src, to: dst)
        #expect(abs(fit.a - t.a) < 1e-5 && abs(fit.b - t.b) < 1e-5 && abs(fit.tx - t.tx) < 1e-4 && abs(fit.ty - t.ty) < 1e-4)
        #expect(abs(fit.scale - 1.5) < 1e-5)
        for p in src {
            let back = fit.inverse.apply(fit.apply(p))
            #expect(abs(back.x - p.x) < 1e-4 && abs(back.y - p.y) < 1e-4)
        }
    }
}
