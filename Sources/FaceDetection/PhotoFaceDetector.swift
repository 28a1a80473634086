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
/// The skipped levels are then searched where the first scanned level points (`SkippedLevelSearch`,
/// issue 21): its windows' local maxima over `seedThreshold` are seeds, and the finer levels are made
/// and scored only around them, at most `skippedLevelPixels` level pixels a scan. Same 200 canvas
/// scenes (`eval photos --protocol canvas --limit 40`, the same build with `--skipped-levels off` as
/// before): recall 95.0 → 95.5 %, failures 9.0 → 8.5 %, 47 seeds and 2.1 Mpixel of regions a scene,
/// detection 137.8 → 148.1 ms a scene of thread CPU on the loaded VM (DetectorBenchmarks' 12 MP photo:
/// +12.5, -6, 0, +12.5 % over four runs at that load; Models/README.md). Seeds over -2 (155 a
/// canvas scene) would need 9.4 Mpixel of regions, as much time as scanning the levels whole.
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
///
/// Keeps scratch between scans (the first level's scores, `SkippedLevelSearch`'s buffers), as
/// `HOGFaceDetector` does: one instance per thread.
public final class PhotoFaceDetector: ContestedFaceDetector {
    public let detector: HOGFaceDetector
    /// Input pixels the scan's first level may hold (the finer levels of larger photos are skipped,
    /// then searched around seeds when `searchSkippedLevels`).
    public var pixelBudget = 6_000_000
    /// Scan the levels `pixelBudget` skips around the first scanned level's seeds (`SkippedLevelSearch`).
    public var searchSkippedLevels = true
    /// A window of the first scanned level scoring at least this is a seed for the skipped levels.
    public var seedThreshold: Float = -1.5
    /// Windows of a skipped level are scored when their face centre is within this x a seed's side
    /// of the seed's centre.
    public var seedRadius: Float = 0.3
    /// Level pixels the skipped levels' regions may hold in all: the cap on what the search adds to
    /// a scan (seeds below the detection threshold first, best first; then the detections').
    public var skippedLevelPixels = 3_000_000
    /// Windows scoring at least this but under the detector's threshold are never boxes of their own,
    /// only rivals of the kept box that suppresses them (`contestedBoxes`), fitted and judged when
    /// that box's fit is doubtful (`LandmarkCascade.contestedFit`). Set it to the detector's
    /// threshold (or above) for rivals over the threshold only, as before. Why: on
    /// `lorgnette eval photos --protocol canvas --limit 40` a turned, tilted face (afw_4285163979_3)
    /// was missed at every scale, its own windows scoring -1.17 to -1.53 under -0.84, four of the
    /// five under a larger box of the canvas that scored over the threshold and whose fit missed it.
    /// Same 200 scenes, -1.6 against the threshold (session 34): failures 8.5 → 6.5 % (that face
    /// found at x0.5, x1 and x8; its x8 window is a larger rival of small boxes inside the face),
    /// recall 95.5 → 97.0 %, false positives 0.162 → 0.195 / MP, gross failures 0 %, the scan's time
    /// unchanged, but the fits of busy canvases 567 → 911 ms a scene (3.3x the rivals); -1.45 lost
    /// x1 (7.0 %), smaller rivals only lost x8 (7.0 %, fits 727 ms); the detector threshold itself
    /// at -1.6 gave 5.5 % at 1,903 ms of fits and 0.248 / MP (Models/README.md).
    public var rivalThreshold: Float = -1.6
    /// When no kept box (nor rival) gives a face, the best this-many windows over `rivalThreshold`
    /// that were not fitted as rivals are fitted and judged as boxes of their own
    /// (`ContestedBox.standby`; 0: never). Why: a photo is given because it shows a face, and a plain
    /// face turned a little whose windows all score under the threshold (validation crop
    /// afw_4285163979_3: best window -1.51 against -0.84) was reported as no face at all, by
    /// `landmarks`, `measure` and `live --input` alike. Only photos where nothing else is a face pay
    /// for these fits. Natural crops: failures 2.43 → 1.94 %, no other face moved; 437 faceless
    /// images: 30 → 38 with a face, 2 of the 8 real faces at a crop's edge, 6 upside-down crops
    /// (Models/README.md, "Standby windows", which also says why three).
    public var standbyCount = 3

    private var skipped = SkippedLevelSearch()
    /// The first scanned level's scores (row-major windows), for finding the seeds.
    private var firstScores: [Float] = []
    /// Seeds of the last scan (for `eval photos`).
    public private(set) var lastSeedCount = 0
    /// Level pixels the skipped levels' regions of the last scan held.
    public private(set) var lastSkippedPixels = 0

    public init(model: HOGFaceDetectorModel) {
        detector = HOGFaceDetector(model: model)
        detector.borderCells = 4
    }

    /// The smallest canonical face side (input pixels) scanned everywhere in an image of this size
    /// (smaller ones, down to the window's 64 px, only around seeds: `searchSkippedLevels`).
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
    /// (`contestedBoxes`), for the fit judge to choose between (`LandmarkCascade.faces(in:detector:)`),
    /// then the standby windows (`standbyCount`), for when none of them gives a face.
    public func detectContested(in image: GrayImage) -> [ContestedBox] {
        let (kept, candidates, weak) = scan(image)
        let groups = contestedBoxes(kept: kept, candidates: candidates + weak)
        let rivals = groups.flatMap(\.rivals)
        return groups + standby(weak.filter { !rivals.contains($0) }).map { ContestedBox(box: $0, standby: true) }
    }

    /// The best `standbyCount` of `weak` that survive suppression among themselves by overlap alone,
    /// best first. Nested windows are not suppressed and a weak window under a kept box counts too:
    /// the validation face afw_4285163979_3's own window (-1.51) lies inside a larger false box
    /// (-0.77) and inside a weak 360 px window (-1.45), which the usual suppression let stand for it.
    private func standby(_ weak: [FaceBox]) -> [FaceBox] {
        guard standbyCount > 0 else { return [] }
        return Array(nonMaximumSuppression(weak, maxIoU: 0.3, maxCoverage: 1.01).prefix(standbyCount))
    }

    /// The windows over the threshold and the boxes suppression keeps of them, and the windows over
    /// `rivalThreshold` but under the threshold (rivals only), all only those whose centre lies
    /// inside the photo.
    private func scan(_ image: GrayImage) -> (kept: [FaceBox], candidates: [FaceBox], weak: [FaceBox]) {
        detector.minimumFaceSide = smallestFaceSide(width: image.width, height: image.height)
        let w = Float(image.width), h = Float(image.height)
        let inside = { (b: FaceBox) -> Bool in
            let c = b.centre
            return c.x >= -0.5 && c.y >= -0.5 && c.x <= w - 0.5 && c.y <= h - 0.5
        }
        let window = detector.model.window, threshold = detector.threshold
        lastSeedCount = 0; lastSkippedPixels = 0
        var candidates: [FaceBox] = [], weak: [FaceBox] = []
        let floor = min(threshold, rivalThreshold)
        var first: (index: Int, width: Int, height: Int, scaleX: Float, scaleY: Float, border: Int)?
        let seeding = searchSkippedLevels && smallestFaceSide(width: image.width, height: image.height) > Float(window.faceSidePixels)
        detector.scan(image) { level, x, y, score in
            if first == nil {
                first = (level.index, level.features.cellsX - window.cells + 1, level.features.cellsY - window.cells + 1,
                         level.scaleX, level.scaleY, level.borderPixels)
                if seeding { firstScores.removeAll(keepingCapacity: true); firstScores.reserveCapacity(first!.width * first!.height) }
            }
            if seeding && level.index == first!.index { firstScores.append(score) }
            guard score >= floor else { return }
            let box = window.faceBox(cellX: x, cellY: y, scaleX: level.scaleX, scaleY: level.scaleY, score: score,
                                     borderPixels: level.borderPixels)
            if score >= threshold { candidates.append(box) } else { weak.append(box) }
        }
        if seeding, let first, first.index > 0 {
            // Seeds: the first level's windows over `seedThreshold` that score best among their eight
            // neighbours (a face-like spot gives a cluster of windows; one seed each is enough).
            var seeds: [FaceBox] = []
            let ow = first.width, oh = first.height
            firstScores.withUnsafeBufferPointer { f in
                for y in 0 ..< oh {
                    for x in 0 ..< ow where f[y * ow + x] >= seedThreshold {
                        let v = f[y * ow + x]
                        var peak = true
                        for dy in max(0, y - 1) ... min(oh - 1, y + 1) {
                            for dx in max(0, x - 1) ... min(ow - 1, x + 1) where f[dy * ow + dx] > v { peak = false }
                        }
                        guard peak else { continue }
                        let box = window.faceBox(cellX: x, cellY: y, scaleX: first.scaleX, scaleY: first.scaleY, score: v,
                                                 borderPixels: first.border)
                        if inside(box) { seeds.append(box) }
                    }
                }
            }
            lastSeedCount = seeds.count
            // Seeds that are detections themselves come last: their spot already has a face box, and
            // on a busy photo (the canvas protocol's upside-down faces) they spend the budget before
            // the doubtful spots a small face leaves (canvas x0.5, 40 scenes, seeds over -2, 3 Mpixel:
            // best seed first found none of the five faces the scan misses, doubtful ones first one).
            seeds.sort { a, b in (a.score < threshold) != (b.score < threshold) ? a.score < threshold : a.score > b.score }
            var budget = skippedLevelPixels
            // The coarsest skipped level first: its faces are the ones the seeds fit best.
            for k in (0 ..< min(first.index, window.levelsPerOctave)).reversed() {
                skipped.scan(image, level: k, seeds: seeds, radius: seedRadius, detector: detector, threshold: floor,
                             pixelBudget: &budget) { box in
                    if box.score >= threshold { candidates.append(box) } else { weak.append(box) }
                }
            }
            lastSkippedPixels = skippedLevelPixels - budget
        }
        return (nonMaximumSuppression(candidates).filter(inside), candidates.filter(inside), weak.filter(inside))
    }
}
