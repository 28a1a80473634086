import FaceDetection
import Foundation
import Imaging
import Testing

@Suite struct HOGFeatureTests {
    /// A linear ramp I = 128 + a·x + b·y: every interior pixel has the gradient (2a, 2b).
    static func ramp(_ a: Float, _ b: Float, size: Int = 48) -> GrayImage {
        var img = GrayImage(width: size, height: size)
        for y in 0 ..< size {
            for x in 0 ..< size {
                let v = 128 + a * Float(x - size / 2) + b * Float(y - size / 2)
                img[x, y] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return img
    }

    @Test func mapSizeAndPadding() {
        let map = HOGExtractor().compute(Self.ramp(1, 0, size: 70))
        #expect(map.cellsX == 8 && map.cellsY == 8)
        #expect(map.values.count == 8 * 8 * HOGFeatureMap.stride)
        for c in 0 ..< 64 { #expect(map.values[c * HOGFeatureMap.stride + 31] == 0) }
    }

    @Test func flatImageHasNoFeatures() {
        let map = HOGExtractor().compute(GrayImage(width: 40, height: 32, fill: 77))
        #expect(map.values.allSatisfy { $0 == 0 })
    }

    /// The dominant contrast-sensitive bin of a ramp's centre cell is the direction (of the 18,
    /// 20° apart) with the largest projection of the gradient — brute force as in the reference.
    // Gradients at least ~5° from a bin boundary, so 8-bit rounding of the ramp cannot flip the bin.
    @Test(arguments: [(Float(2), Float(0)), (0.35, 2), (-2, 0.1), (1.2, -2.0), (-1.0, -1.7), (1.5, 1.5), (0.3, 2.2), (-2.0, 0.75)])
    func dominantOrientation(a: Float, b: Float) {
        let map = HOGExtractor().compute(Self.ramp(2.5 * a, 2.5 * b))
        let cell = (3 * map.cellsX + 3) * HOGFeatureMap.stride
        let sensitive = Array(map.values[cell ..< cell + 18])
        let got = sensitive.indices.max { sensitive[$0] < sensitive[$1] }!
        var best: Float = -1, expected = 0
        for o in 0 ..< 18 {
            let angle = Float(o) * Float.pi / 9
            let p = cos(angle) * a + sin(angle) * b
            if p > best { best = p; expected = o }
        }
        #expect(got == expected, "gradient (\(a), \(b))")
        // Contrast-insensitive bin is the same direction modulo 180°.
        let insensitive = Array(map.values[cell + 18 ..< cell + 27])
        #expect(insensitive.indices.max { insensitive[$0] < insensitive[$1] }! == expected % 9)
    }

    @Test func truncationBoundsFeatures() {
        var noise = GrayImage(width: 64, height: 64)
        var state: UInt32 = 12345
        for i in noise.pixels.indices { state = state &* 1_664_525 &+ 1_013_904_223; noise.pixels[i] = UInt8(state >> 24) }
        let map = HOGExtractor().compute(noise)
        // Each orientation feature is half a sum of four values truncated at 0.2.
        #expect(map.values.allSatisfy { $0 >= 0 && $0 <= 0.4 + 1e-6 })
    }
}
