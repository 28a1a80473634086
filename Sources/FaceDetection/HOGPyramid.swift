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
        /// Black border added around the level image on each side, in level pixels (0 without padding):
        /// level pixel p of the features is input point (p - borderPixels + 0.5) / scale - 0.5.
        public let borderPixels: Int
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
    private var padded = GrayImage(width: 0, height: 0)

    public init(levelsPerOctave: Int) {
        precondition(levelsPerOctave >= 1, "levelsPerOctave must be >= 1")
        self.levelsPerOctave = levelsPerOctave
    }

    /// Calls `body` with each level whose feature map has at least `minCellsX x minCellsY` cells,
    /// from full resolution down. `body` may stop the scan by returning false. The level's
    /// features are only valid during the call.
    ///
    /// `borderCells` > 0 pads every level with that many cells of black on each side before its
    /// features are computed, so a window can reach past the image's edge by that much at every
    /// scale: a face that fills the frame, touches its edge or is cut by it still has its window.
    /// (The training crops were padded with black the same way where they left the photo.) Levels
    /// are then scanned while the padded map holds `minCells`.
    public func forEachLevel(of image: GrayImage, minCellsX: Int, minCellsY: Int,
                             startLevel: Int = 0, borderCells: Int = 0, _ body: (Level) -> Bool) {
        let cell = HOGFeatureMap.cellSize
        let border = borderCells * cell
        let w0 = image.width, h0 = image.height
        var k = startLevel
        validOctaves = 0
        while true {
            let s = exp2(-Double(k) / Double(levelsPerOctave))
            let w = Int((Double(w0) * s).rounded()), h = Int((Double(h0) * s).rounded())
            if (w + 2 * border) / cell < minCellsX || (h + 2 * border) / cell < minCellsY || w < 1 || h < 1 { return }
            let octave = k / levelsPerOctave
            let source = octaveImage(image, octave)
            while maps.count <= k { maps.append(HOGFeatureMap()); levelImages.append(GrayImage(width: 0, height: 0)) }
            if border > 0 {
                // The level is made straight into its padded frame (no level-sized copy).
                if source.width == w && source.height == h {
                    Self.pad(source, border: border, into: &padded)
                } else {
                    resampler.resize(source, width: w, height: h, border: border, into: &padded)
                }
                extractor.compute(padded, into: &maps[k], blackBorder: border)
            } else if source.width == w && source.height == h {
                extractor.compute(source, into: &maps[k])
            } else {
                resampler.resize(source, width: w, height: h, into: &levelImages[k])
                extractor.compute(levelImages[k], into: &maps[k])
            }
            let level = Level(index: k, scaleX: Float(w) / Float(w0), scaleY: Float(h) / Float(h0), features: maps[k],
                              borderPixels: border)
            if !body(level) { return }
            k += 1
        }
    }

    /// `image` centred in a black frame `border` pixels wide.
    static func pad(_ image: GrayImage, border: Int, into out: inout GrayImage) {
        let w = image.width + 2 * border, h = image.height + 2 * border
        out.reshape(width: w, height: h)
        clearFrame(of: &out, border: border)
        out.pixels.withUnsafeMutableBufferPointer { d in
            image.pixels.withUnsafeBufferPointer { s in
                for y in 0 ..< image.height {
                    let to = (y + border) * w + border
                    UnsafeMutableBufferPointer(rebasing: d[to ..< to + image.width])
                        .update(fromContentsOf: UnsafeBufferPointer(rebasing: s[y * image.width ..< (y + 1) * image.width]))
                }
            }
        }
    }

    /// Zeroes the outer `border` rows and columns of `image` (the frame `pad` leaves black), and
    /// only those: the inside is about to be overwritten.
    static func clearFrame(of image: inout GrayImage, border: Int) {
        let w = image.width, h = image.height
        let b = min(border, (h + 1) / 2), c = min(border, (w + 1) / 2)
        image.pixels.withUnsafeMutableBufferPointer { d in
            UnsafeMutableBufferPointer(rebasing: d[0 ..< b * w]).update(repeating: 0)
            UnsafeMutableBufferPointer(rebasing: d[(h - b) * w ..< h * w]).update(repeating: 0)
            for y in b ..< h - b {
                UnsafeMutableBufferPointer(rebasing: d[y * w ..< y * w + c]).update(repeating: 0)
                UnsafeMutableBufferPointer(rebasing: d[(y + 1) * w - c ..< (y + 1) * w]).update(repeating: 0)
            }
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
