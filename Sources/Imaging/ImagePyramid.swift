/// A gray image pyramid: level 0 is the input, each further level is the previous one shrunk by
/// `factor` with area averaging, down to a minimum size.
///
/// Used by the face detector (sliding windows over scales) and by coarse-to-fine tracking.
/// Sizes are rounded to whole pixels, so each level stores its exact per-axis scale relative to
/// level 0 (`scaleX`, `scaleY` = level size / level-0 size) alongside the nominal `factor^-i`.
/// Points map between level 0 and a level with the pixel-centre convention:
/// p_level = (p0 + 0.5) * scale - 0.5.
public struct ImagePyramid: Sendable {
    /// One resolution of the pyramid: the image and how its pixel frame relates to level 0's.
    public struct Level: Sendable {
        public let image: GrayImage
        /// Index of the level (0 = full resolution).
        public let index: Int
        /// `factor^-index`, the scale asked for.
        public let nominalScale: Float
        /// Level width / level-0 width.
        public let scaleX: Float
        /// Level height / level-0 height.
        public let scaleY: Float

        /// A level-0 point in this level's pixel coordinates.
        public func fromBase(_ p: SIMD2<Float>) -> SIMD2<Float> {
            SIMD2((p.x + 0.5) * scaleX - 0.5, (p.y + 0.5) * scaleY - 0.5)
        }

        /// A point of this level in level-0 pixel coordinates.
        public func toBase(_ p: SIMD2<Float>) -> SIMD2<Float> {
            SIMD2((p.x + 0.5) / scaleX - 0.5, (p.y + 0.5) / scaleY - 0.5)
        }
    }

    public let levels: [Level]
    /// The shrink factor between consecutive levels (> 1).
    public let factor: Float

    /// Builds levels until the next one would have a side smaller than `minSize` or `maxLevels`
    /// levels exist. Level i has size round(size0 / factor^i), computed from level i - 1, so a
    /// factor of 2 gives exact 2x2 means. Level 0 is always present (even if smaller than
    /// `minSize`). `factor` may be irrational, e.g. 2^(1/4) for four levels per octave.
    public init(_ base: GrayImage, factor: Float, minSize: Int = 16, maxLevels: Int = .max) {
        precondition(factor > 1 && factor.isFinite, "pyramid factor must be > 1, got \(factor)")
        precondition(minSize >= 1 && maxLevels >= 1, "pyramid needs minSize >= 1 and maxLevels >= 1")
        self.factor = factor
        let w0 = base.width, h0 = base.height
        var levels = [Level(image: base, index: 0, nominalScale: 1, scaleX: 1, scaleY: 1)]
        var previous = base
        var s = 1.0
        while levels.count < maxLevels, w0 > 0, h0 > 0 {
            let i = levels.count
            s /= Double(factor)
            let w = Int((Double(w0) * s).rounded()), h = Int((Double(h0) * s).rounded())
            if w < minSize || h < minSize || (w == previous.width && h == previous.height) { break }
            let image = previous.resized(width: w, height: h, method: .area)
            levels.append(Level(image: image, index: i, nominalScale: Float(s),
                                scaleX: Float(w) / Float(w0), scaleY: Float(h) / Float(h0)))
            previous = image
        }
        self.levels = levels
    }

    public var count: Int { levels.count }
    public subscript(i: Int) -> Level { levels[i] }
}
