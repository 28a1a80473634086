/// An axis-aligned face box in image pixel coordinates (pixel-centre convention: the centre of the
/// top-left pixel is (0, 0)), with the detector's confidence.
///
/// Box convention shared by the detector and the landmark regressor: the *canonical* box of a face is
/// the square centred on the centre of its 68 landmarks' bounding box, with side equal to that bounding
/// box's larger side (`canonical(landmarks:)`). The detector is trained to output canonical boxes; the
/// landmark model learns its initial shape from the boxes the detector actually outputs.
public struct FaceBox: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float
    /// Detector score; higher is more face-like. Comparable only within one detector model.
    public var score: Float

    public init(x: Float, y: Float, width: Float, height: Float, score: Float = 0) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.score = score
    }

    public var centre: SIMD2<Float> { SIMD2(x + width / 2, y + height / 2) }

    /// The box in the left-right mirror of an image `imageWidth` pixels wide: x maps to
    /// (imageWidth − 1) − x (pixel centres, as `GrayImage.setMirrored`), so [x, x + width) maps to
    /// [imageWidth − 1 − x − width, imageWidth − 1 − x). Score kept.
    public func mirrored(imageWidth: Int) -> FaceBox {
        FaceBox(x: Float(imageWidth - 1) - x - width, y: y, width: width, height: height, score: score)
    }

    /// Intersection over union with another box.
    public func iou(_ o: FaceBox) -> Float {
        let ix = max(0, min(x + width, o.x + o.width) - max(x, o.x))
        let iy = max(0, min(y + height, o.y + o.height) - max(y, o.y))
        let inter = ix * iy
        let union = width * height + o.width * o.height - inter
        return union > 0 ? inter / union : 0
    }

    /// The canonical box of a face from its landmarks (see the type's documentation).
    public static func canonical(landmarks: [SIMD2<Float>]) -> FaceBox {
        var lo = landmarks[0], hi = landmarks[0]
        for p in landmarks { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        return canonical(lo: lo, hi: hi)
    }

    /// The canonical box of landmarks whose bounding box runs from `lo` to `hi` (for callers that
    /// compute points on the fly rather than store them).
    public static func canonical(lo: SIMD2<Float>, hi: SIMD2<Float>) -> FaceBox {
        let side = max(hi.x - lo.x, hi.y - lo.y)
        let c = (lo + hi) / 2
        return FaceBox(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side, score: 0)
    }
}
