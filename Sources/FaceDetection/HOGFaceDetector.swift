import Foundation
import Imaging

/// A sliding-window face detector: Felzenszwalb HOG over an image pyramid scored by one or more
/// linear filters (Dalal & Triggs, CVPR 2005; the design of dlib's frontal face detector), followed
/// by non-maximum suppression. Returns canonical face boxes (see `FaceBox`), best first; the box
/// score is the best filter's raw linear score at that window.
///
/// Smallest face: `model.window.faceSidePixels` (64 px) unless `minimumFaceSide` asks for larger;
/// the image is never upsampled. Not thread-safe (keeps scratch buffers): one detector per thread.
public final class HOGFaceDetector: FaceDetector {
    public let model: HOGFaceDetectorModel
    /// Windows scoring below this are discarded; defaults to the model's calibrated threshold.
    public var threshold: Float
    /// Skip pyramid levels whose face size is smaller than this (input pixels); 0 scans all.
    public var minimumFaceSide: Float = 0
    /// Black border around every pyramid level, in cells (`HOGPyramid.forEachLevel`): 0 finds only
    /// faces whose window lies inside the image; 4 (half a face) finds faces that fill the frame
    /// or are cut by its edge, for about 2 x 64 px more per level row and column.
    public var borderCells = 0

    private let pyramid: HOGPyramid
    private var scores: [Float] = []
    /// Scratch reused scan after scan (detection runs on every frame while no face is tracked):
    /// the best score per window of a level, and the windows over the threshold.
    private var best: [Float] = []
    private var found: [FaceBox] = []
    private var kept: [FaceBox] = []

    public init(model: HOGFaceDetectorModel) {
        self.model = model
        self.threshold = model.threshold
        self.pyramid = HOGPyramid(levelsPerOctave: model.window.levelsPerOctave)
    }

    public func detect(in image: GrayImage) -> [FaceBox] {
        // Into reused buffers; `kept` is unshared again once the caller has dropped the last result.
        _ = candidates(in: image, threshold: threshold)
        nonMaximumSuppression(sorting: &found, into: &kept)
        return kept
    }

    /// Every window scoring at least `threshold`, before non-maximum suppression, in scan order.
    public func candidates(in image: GrayImage, threshold: Float) -> [FaceBox] {
        // Unshared again once the caller has dropped the previous result, so its storage is reused.
        found.removeAll(keepingCapacity: true)
        scan(image) { level, x, y, score in
            if score >= threshold {
                found.append(model.window.faceBox(cellX: x, cellY: y, scaleX: level.scaleX, scaleY: level.scaleY, score: score,
                                                  borderPixels: level.borderPixels))
            }
        }
        return found
    }

    /// Calls `body` for every window position of every scanned level with the best filter score
    /// there. The level (and its features) is valid only during the call.
    public func scan(_ image: GrayImage, _ body: (HOGPyramid.Level, Int, Int, Float) -> Void) {
        let window = model.window
        var start = 0
        if minimumFaceSide > Float(window.faceSidePixels) {
            let octaves = log2f(minimumFaceSide / Float(window.faceSidePixels))
            start = max(0, Int((octaves * Float(window.levelsPerOctave)).rounded(.down)))
        }
        pyramid.forEachLevel(of: image, minCellsX: window.cells, minCellsY: window.cells, startLevel: start,
                             borderCells: borderCells) { level in
            let size = model.bestScores(level.features, scores: &scores, best: &best)
            for y in 0 ..< size.height {
                for x in 0 ..< size.width { body(level, x, y, best[y * size.width + x]) }
            }
            return true
        }
    }
}
