import Foundation
import Imaging

/// Faces in a photograph, whatever its size and wherever the face is: the HOG detector with every
/// pyramid level padded by half a face of black (`HOGFaceDetector.borderCells`), so a face that
/// fills the frame, touches its edge or is cut by it still gets a whole window, and with the
/// finest levels skipped on large photos so the cost stays bounded.
///
/// Cost: the pyramid's first level costs about 30 % of a scan and each later one 2^(-1/2) of the
/// one before, so a scan costs about 3.4x its first level. On a photo of more than `pixelBudget`
/// pixels the scan starts at the first level of at most that many pixels: on a 12-megapixel photo
/// with the default budget (6 Mpixel) two levels are skipped, the smallest face found has a
/// canonical box of 91 px (inter-ocular distance about 50 px) instead of 64 px, and the scan costs
/// 124 ms of one core instead of 195 ms (`lorgnette eval photos --protocol canvas`, 4000x3000; an
/// 8.5 Mpixel budget, one level skipped, took 176 ms). Tracking in video keeps the plain detector
/// (no border, all levels).
///
/// Where a 12 Mpixel scan goes (perf, `lorgnette landmarks` on a 4000x3000 photo): window scoring
/// about 27 %, HOG histograms 28 %, HOG normalisation 13 %, the two levels resized from the full
/// photo 15 %, padding and clearing the levels 5 %. Each level is now resized straight into its
/// black frame, the HOG skips the frame's inside (both exact), and the scoring runs 16 lanes of
/// fused multiply-adds: `eval photos --protocol canvas --limit 3` (15 scenes of 4000x3000, thread
/// CPU of the detector, builds alternated on the loaded 2-core VM) 129-134 ms/scene before,
/// 120-126 ms after (about -7 %); `--limit 40`: 133.3 → 127.0 ms/scene with every scene's NME, recall,
/// false positives and failures identical. Tried and dropped: SIMD normalisation (Swift spilled the
/// 16-lane sums to the stack: 2 % slower), four interleaved histograms instead of two (twice the
/// histogram memory: 20 % slower), HOG gradients sixteen pixels at a time (10 % slower).
public final class PhotoFaceDetector: ContestedFaceDetector {
    public let detector: HOGFaceDetector
    /// Input pixels the scan's first level may hold (the finer levels of larger photos are skipped).
    public var pixelBudget = 6_000_000

    public init(model: HOGFaceDetectorModel) {
        detector = HOGFaceDetector(model: model)
        detector.borderCells = 4
    }

    /// The smallest canonical face side (input pixels) scanned in an image of this size.
    public func smallestFaceSide(width: Int, height: Int) -> Float {
        let face = Float(detector.model.window.faceSidePixels)
        let area = Double(width) * Double(height)
        guard area > Double(pixelBudget) else { return face }
        let levels = Double(detector.model.window.levelsPerOctave)
        let skipped = (levels * log2(area / Double(pixelBudget)) / 2).rounded(.up)
        // A hundredth of a level over, so the detector's floor lands on the skipped level itself.
        return face * Float(exp2((skipped + 0.01) / levels))
    }

    /// Boxes whose centre lies outside the photo are dropped: such a face is less than half in the
    /// picture, and the padding's edge against the photo's content is where false windows score.
    public func detect(in image: GrayImage) -> [FaceBox] {
        scan(image).kept
    }

    /// `detect(in:)`'s boxes, each with the windows of clearly different size it suppressed
    /// (`contestedBoxes`), for the fit judge to choose between (`LandmarkCascade.faces(in:detector:)`).
    public func detectContested(in image: GrayImage) -> [ContestedBox] {
        let (kept, candidates) = scan(image)
        return contestedBoxes(kept: kept, candidates: candidates)
    }

    /// The windows over the threshold and the boxes suppression keeps of them, both only those whose
    /// centre lies inside the photo.
    private func scan(_ image: GrayImage) -> (kept: [FaceBox], candidates: [FaceBox]) {
        detector.minimumFaceSide = smallestFaceSide(width: image.width, height: image.height)
        let w = Float(image.width), h = Float(image.height)
        let inside = { (b: FaceBox) -> Bool in
            let c = b.centre
            return c.x >= -0.5 && c.y >= -0.5 && c.x <= w - 0.5 && c.y <= h - 0.5
        }
        let candidates = detector.candidates(in: image, threshold: detector.threshold)
        return (nonMaximumSuppression(candidates).filter(inside), candidates.filter(inside))
    }
}
