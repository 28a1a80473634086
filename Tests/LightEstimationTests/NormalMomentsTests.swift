@testable import LightEstimation
import Testing

/// The dominant-light search's sums along a direction, from the normals' moments, equal the sums
/// taken over the samples one by one.
struct NormalMomentsTests {
    @Test(arguments: [1, 7, 350])
    func momentSumsEqualDirectSums(count: Int) {
        var state: UInt64 = 0x9E37_79B9 &+ UInt64(count)
        func unit() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        var normals: [SIMD3<Float>] = [], luminance: [Float] = []
        for _ in 0..<count {
            var n = SIMD3<Float>(unit() * 2 - 1, unit() * 2 - 1, -unit())
            n /= (n * n).sum().squareRoot()
            normals.append(n); luminance.append(unit())
        }
        var moments = NormalMoments()
        normals.withUnsafeBufferPointer { n in
            luminance.withUnsafeBufferPointer { l in moments.gather(normals: n.baseAddress!, luminance: l.baseAddress!, count: count) }
        }
        let (c0, c1, c2) = (0.09375, 0.5, 0.46875)
        for _ in 0..<20 {
            var d = SIMD3<Float>(unit() * 2 - 1, unit() * 2 - 1, unit() * 2 - 1)
            d /= (d * d).sum().squareRoot()
            var sf = 0.0, sff = 0.0, sfl = 0.0
            for i in 0..<count {
                let n = normals[i]
                let t = Double(n.x) * Double(d.x) + Double(n.y) * Double(d.y) + Double(n.z) * Double(d.z)
                let f = c0 + c1 * t + c2 * t * t
                sf += f; sff += f * f; sfl += f * Double(luminance[i])
            }
            let m = moments.sums(along: d, c0: c0, c1: c1, c2: c2)
            #expect(abs(m.sf - sf) <= 1e-9 * max(1, abs(sf)), "Σf \(m.sf) vs \(sf)")
            #expect(abs(m.sff - sff) <= 1e-9 * max(1, abs(sff)), "Σf² \(m.sff) vs \(sff)")
            #expect(abs(m.sfl - sfl) <= 1e-9 * max(1, abs(sfl)), "Σfl \(m.sfl) vs \(sfl)")
        }
    }
}
