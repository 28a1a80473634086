import Foundation
import Imaging

/// Computes HOG feature maps over an image pyramid with `levelsPerOctave` levels per octave:
/// level k is the image shrunk by 2^(k / levelsPerOctave), level 0 being the image itself (the
/// detector never upsamples, so its smallest face is the window's face size at full resolution).
///
/// Level k is made from the octave image (the input halved ⌊k / levelsPerOctave⌋ times with exact
/// 2x2 means) by one bilinear shrink of less than 2x, so blur does not accumulate level after level. Coordinates:
/// a level pixel p maps to the input point (p + 0.5) / scale - 0.5 (per axis), the pixel-centre
/// convention of `ImagePyramid`.
///
/// Keeps its images, resizers and feature storage between calls: use one per thread.
public final class HOGPyramid {
    /// One pyramid level's features and its exact per-axis scale (level size / input size).
    public struct Level {
        public let index: Int
        public let scaleX: Float
        public let scaleY: Float
        public let features: HOGFeatureMap
    }

    public let levelsPerOctave: Int
    private let extractor = HOGExtractor()
    private var octaves: [GrayImage] = []
    private var validOctaves = 0
    // One image and one feature map per level index, so their storage is reused frame after
    // frame without re-zeroing (sizes differ between levels but not between frames).
    private var levelImages: [GrayImage] = []
    private var maps: [HOGFeatureMap] = []
    private var resampler = PyramidResampler()

    public init(levelsPerOctave: Int) {
        precondition(levelsPerOctave >= 1, "levelsPerOctave must be >= 1")
        self.levelsPerOctave = levelsPerOctave
    }

    /// Calls `body` with each level whose feature map has at least `minCellsX x minCellsY` cells,
    /// from full resolution down. `body` may stop the scan by returning false. The level's
    /// features are only valid during the call.
    public func forEachLevel(of image: GrayImage, minCellsX: Int, minCellsY: Int,
                             startLevel: Int = 0, _ body: (Level) -> Bool) {
        let cell = HOGFeatureMap.cellSize
        let w0 = image.width, h0 = image.height
        var k = startLevel
        validOctaves = 0
        while true {
            let s = exp2(-Double(k) / Double(levelsPerOctave))
            let w = Int((Double(w0) * s).rounded()), h = Int((Double(h0) * s).rounded())
            if w / cell < minCellsX || h / cell < minCellsY { return }
            let octave = k / levelsPerOctave
            let source = octaveImage(image, octave)
            while maps.count <= k { maps.append(HOGFeatureMap()); levelImages.append(GrayImage(width: 0, height: 0)) }
            if source.width == w && source.height == h {
                extractor.compute(source, into: &maps[k])
            } else {
                resampler.resize(source, width: w, height: h, into: &levelImages[k])
                extractor.compute(levelImages[k], into: &maps[k])
            }
            let level = Level(index: k, scaleX: Float(w) / Float(w0), scaleY: Float(h) / Float(h0), features: maps[k])
            if !body(level) { return }
            k += 1
        }
    }

    /// The level at exactly `index` (nil when it would be smaller than one cell).
    public func level(of image: GrayImage, index: Int) -> Level? {
        var found: Level?
        forEachLevel(of: image, minCellsX: 1, minCellsY: 1, startLevel: index) { level in
            found = level
            return false
        }
        return found
    }

    /// The input halved `octave` times (exact 2x2 means), cached for the current scan.
    private func octaveImage(_ image: GrayImage, _ octave: Int) -> GrayImage {
        if octave == 0 { return image }
        while validOctaves < octave {
            let src = validOctaves == 0 ? image : octaves[validOctaves - 1]
            if octaves.count == validOctaves { octaves.append(GrayImage(width: 0, height: 0)) }
            resampler.halve(src, into: &octaves[validOctaves])
            validOctaves += 1
        }
        return octaves[octave - 1]
    }
}
