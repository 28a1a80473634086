import Imaging
import Landmarks
import Testing

/// A deterministic pseudo-random RGB image (xorshift), so every channel and pixel differ.
private func noiseImage(width: Int, height: Int, seed: UInt32) -> RGBImage {
    var image = RGBImage(width: width, height: height)
    var state = seed
    for i in image.pixels.indices {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5
        image.pixels[i] = UInt8(truncatingIfNeeded: state >> 8)
    }
    return image
}

/// The crop's level 0 written out the plain way: every pixel of the d x d box, clamped to the image,
/// averaged; `value(x, y)` is one image pixel's value.
private func referenceLevel0(_ crop: FaceCrop, imageWidth: Int, imageHeight: Int, value: (Int, Int) -> Double) -> [Double] {
    let d = crop.factor
    var out: [Double] = []
    for j in 0..<crop.height {
        for i in 0..<crop.width {
            var s = 0.0
            for dy in 0..<d {
                for dx in 0..<d {
                    let x = min(max(crop.originX + i * d + dx, 0), imageWidth - 1)
                    let y = min(max(crop.originY + j * d + dy, 0), imageHeight - 1)
                    s += value(x, y)
                }
            }
            out.append(s / Double(d * d))
        }
    }
    return out
}

/// Centres and sizes covering a crop inside the image, past each edge, and box factors 1 to 6.
private let placements: [(centre: SIMD2<Float>, halfSide: Float, faceSide: Float)] = [
    (SIMD2(80, 60), 30, 40),      // d = 1
    (SIMD2(81.3, 62.7), 40, 96),  // d = 1, fractional centre
    (SIMD2(70, 50), 45, 200),     // d = 2
    (SIMD2(5, 8), 50, 290),       // d = 3, past the top-left corner
    (SIMD2(150, 110), 60, 480),   // d = 5, past the bottom-right corner
    (SIMD2(80, 60), 120, 290),    // d = 3, wider than the image on every side
    (SIMD2(80, 60), 54, 576),     // d = 6, inside: RGB rows summed 32 bytes at a time, then 16, then 1
]

@Suite struct FaceCropTests {
    /// The rows-first box filter gives exactly the plain average on a gray image, edges included.
    @Test func grayCropIsTheExactBoxAverage() {
        let rgb = noiseImage(width: 160, height: 120, seed: 7)
        let gray = GrayImage(luma: rgb)
        for p in placements {
            let crop = FaceCrop(image: gray, centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            let reference = referenceLevel0(crop, imageWidth: gray.width, imageHeight: gray.height) { Double(gray[$0, $1]) }
            let got = crop.level0Pixels
            #expect(got.count == reference.count)
            let worst = zip(got, reference).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(worst < 1e-4, "factor \(crop.factor), origin \(crop.originX),\(crop.originY): max error \(worst)")
        }
    }

    /// From RGB, a crop pixel is the BT.601 luma of the box's mean colour (no gray image made), within
    /// half a level of the crop of the converted gray image, whose pixels were rounded one by one.
    @Test func rgbCropIsTheLumaOfTheBoxMean() {
        let rgb = noiseImage(width: 160, height: 120, seed: 11)
        let gray = GrayImage(luma: rgb)
        for p in placements {
            var crop = FaceCrop(image: gray, centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            let fromGray = crop.level0Pixels
            crop.update(image: .rgb(rgb), centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            let reference = referenceLevel0(crop, imageWidth: rgb.width, imageHeight: rgb.height) { x, y in
                let o = 3 * (y * rgb.width + x)
                return (19595 * Double(rgb.pixels[o]) + 38470 * Double(rgb.pixels[o + 1]) + 7471 * Double(rgb.pixels[o + 2])) / 65536
            }
            let got = crop.level0Pixels
            #expect(got.count == reference.count && got.count == fromGray.count)
            let exact = zip(got, reference).map { abs(Double($0) - $1) }.max() ?? 0
            let rounded = zip(got, fromGray).map { abs($0 - $1) }.max() ?? 0
            #expect(exact < 1e-3, "factor \(crop.factor): max error against the luma of the mean \(exact)")
            #expect(rounded <= 0.5 + 1e-3, "factor \(crop.factor): max difference from the gray crop \(rounded)")
            #expect(crop.level1Pixels.count == (crop.width / 2) * (crop.height / 2))
        }
    }

    /// `sourceRect` is every pixel `update` reads: an image blanked outside it gives the same crop.
    @Test func sourceRectBoundsWhatTheCropReads() {
        let rgb = noiseImage(width: 160, height: 120, seed: 3)
        for p in placements {
            let rect = FaceCrop.sourceRect(centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            var blanked = RGBImage(width: rgb.width, height: rgb.height)
            for y in 0..<rgb.height {
                for x in 0..<rgb.width where rect.contains(x: x, y: y) {
                    for c in 0..<3 { blanked.pixels[3 * (y * rgb.width + x) + c] = rgb.pixels[3 * (y * rgb.width + x) + c] }
                }
            }
            let a = FaceCrop(image: GrayImage(luma: rgb), centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            var b = a
            b.update(image: .rgb(blanked), centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            var c = a
            c.update(image: .rgb(rgb), centre: p.centre, halfSide: p.halfSide, faceSide: p.faceSide, referenceSide: 96)
            #expect(b.level0Pixels == c.level0Pixels, "rect \(rect)")
        }
    }
}
