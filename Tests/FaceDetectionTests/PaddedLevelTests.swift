@testable import FaceDetection
import Imaging
import Testing

/// The padded photo pyramid makes each level straight into its black frame and skips the HOG of
/// the frame's inside: both must give exactly what padding the plain level and computing every
/// pixel gives (the detector was trained and measured that way).
@Suite struct PaddedLevelTests {
    static func textured(_ w: Int, _ h: Int, seed: Int) -> GrayImage {
        var g = GrayImage(width: w, height: h)
        for y in 0 ..< h { for x in 0 ..< w { g[x, y] = UInt8(truncatingIfNeeded: (x * 7 + y * 13 + seed) ^ (x * y + 3 * seed)) } }
        return g
    }

    @Test(arguments: [(203, 157, 150, 116, 32), (96, 80, 57, 47, 8), (40, 33, 23, 20, 24)])
    func resizeIntoAFrameEqualsPaddingTheResize(sw: Int, sh: Int, tw: Int, th: Int, border: Int) {
        let image = Self.textured(sw, sh, seed: sw)
        var resampler = PyramidResampler()
        var plain = GrayImage(width: 0, height: 0), padded = GrayImage(width: 0, height: 0)
        resampler.resize(image, width: tw, height: th, into: &plain)
        HOGPyramid.pad(plain, border: border, into: &padded)
        // A reused buffer still holding a larger, brighter image: the frame must be cleared.
        var fused = GrayImage(width: 400, height: 300, fill: 255)
        resampler.resize(image, width: tw, height: th, border: border, into: &fused)
        #expect(fused.width == tw + 2 * border && fused.height == th + 2 * border)
        #expect(fused == padded)
        var again = GrayImage(width: 400, height: 300, fill: 200)
        HOGPyramid.pad(plain, border: border, into: &again)
        #expect(again == padded)
    }

    @Test(arguments: [(150, 116, 32), (57, 47, 8), (23, 20, 32), (1, 1, 32)])
    func blackBorderPromiseGivesTheSameFeatures(w: Int, h: Int, border: Int) {
        var padded = GrayImage(width: 0, height: 0)
        HOGPyramid.pad(Self.textured(w, h, seed: w + h), border: border, into: &padded)
        let extractor = HOGExtractor()
        var full = HOGFeatureMap(), skipped = HOGFeatureMap()
        extractor.compute(padded, into: &full)
        // Into a map that held another image's features, with the extractor's scratch dirty too.
        extractor.compute(Self.textured(padded.width, padded.height, seed: 5), into: &skipped)
        extractor.compute(padded, into: &skipped, blackBorder: border)
        #expect(skipped.cellsX == full.cellsX && skipped.cellsY == full.cellsY)
        #expect(skipped.values == full.values)
        #expect(full.values.contains { $0 != 0 })
    }
}
