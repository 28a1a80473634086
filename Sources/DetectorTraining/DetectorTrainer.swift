import FaceData
import FaceDetection
import Foundation
import Imaging
import LinearAlgebra

/// Settings of `DetectorTrainer`. Defaults are the ones the shipped model was trained with.
public struct DetectorTrainingOptions: Sendable {
    public var seed: UInt64 = 1
    /// SVM cost C of the negatives (hinge loss weight against ½‖w‖²).
    public var cost: Float = 0.01
    /// Positives' cost relative to `cost`: there are ~8x fewer positives, and a missed face costs
    /// the tracker more than a false alarm that the landmark stage can still reject.
    public var positiveWeight: Float = 2
    /// Windows whose face box overlaps the annotated one by less than this IoU are negatives.
    /// Above 0.3 on purpose: the band 0.3–0.4 holds partial faces and boxes at the wrong scale,
    /// which otherwise win non-maximum suppression over the well-placed box.
    public var negativeMaxIoU: Float = 0.4
    /// Hard-negative mining rounds after the first training on random negatives.
    public var miningRounds = 3
    public var randomNegativesPerImage = 10
    public var hardNegativesPerImage = 12
    /// Negatives kept at most; the easiest are dropped first.
    public var maxNegatives = 60_000
    /// Also take positives from each image shrunk by 2^(-1/(2·levelsPerOctave)), so the filter sees
    /// faces at both ends of the pyramid's scale quantisation.
    public var halfStepScales = true
    /// Recall on the training faces at which the score threshold is set.
    public var targetRecall: Float = 0.99
    /// ...unless that lets through more false positives per training image than this; then the
    /// threshold is raised until it does not.
    public var maxFalsePositivesPerImage: Float = 0.1
    public var window = DetectorWindow()
    /// Early rejection (see `LinearWindowFilter`): rows scored first, and how far below the lowest
    /// partial score of a training positive that reaches (threshold − 0.5) the rejection threshold
    /// is put. 0 rows disables it.
    public var pruneRows = 5
    public var pruneMargin: Float = 0.25

    public init() {}
}

/// Progress of a long training step: `done` of `total` units of `stage`.
public struct TrainingProgress: Sendable {
    public var stage: String
    public var done: Int
    public var total: Int
    /// Fraction of the whole training run done so far (0...1), for a progress bar with ETA.
    public var overall: Double
}

/// What training measured, for the model's provenance and the CLI's summary.
public struct DetectorTrainingReport: Sendable {
    public var positives = 0
    public var negatives = 0
    public var roundsLog: [String] = []
    public var threshold: Float = 0
    public var trainingRecall: Float = 0
    public var trainingFalsePositivesPerImage: Float = 0
}

/// Trains a `HOGFaceDetectorModel` the Dalal–Triggs way (CVPR 2005): HOG windows of the annotated
/// faces (and their mirror images) as positives, random background windows as first negatives,
/// then rounds of hard-negative mining (scan the training images with the current filter, add the
/// highest-scoring windows that are not the face, retrain a linear SVM).
///
/// Positives are read from the detector's own pyramid at the level and cell closest to the
/// annotated canonical box, so training sees exactly the features, and the position and scale
/// quantisation, that detection will see. Negatives are windows whose face box has IoU < 0.4 with
/// the annotated box, that lie at least 70 % on real photo (not crop padding), and, in images that
/// may show other people, are not face-sized. Deterministic for a given seed and face list.
public final class DetectorTrainer {
    public let options: DetectorTrainingOptions
    private let progress: (TrainingProgress) -> Void
    private let pyramid: HOGPyramid
    private var dimensions: Int { options.window.cells * options.window.cells * HOGFeatureMap.stride }

    public init(options: DetectorTrainingOptions = DetectorTrainingOptions(), progress: @escaping (TrainingProgress) -> Void = { _ in }) {
        self.options = options
        self.progress = progress
        self.pyramid = HOGPyramid(levelsPerOctave: options.window.levelsPerOctave)
    }

    /// Work units of a run, for `TrainingProgress.overall`: one per face and pass (positives,
    /// each mining round, calibration) plus an SVM fit counted as a third of a pass.
    private var unitsDone = 0.0
    private var unitsTotal = 1.0
    private var unitsPerFit = 0.0

    private func advance(_ stage: String, _ done: Int, _ total: Int, units: Double) {
        unitsDone += units
        progress(TrainingProgress(stage: stage, done: done, total: total, overall: min(unitsDone / unitsTotal, 1)))
    }

    public func train(_ faces: [DetectorTrainingFace]) -> (model: HOGFaceDetectorModel, report: DetectorTrainingReport) {
        precondition(!faces.isEmpty, "no training faces")
        unitsDone = 0
        let fits = Double(options.miningRounds + 1)
        unitsPerFit = Double(faces.count) / 3
        unitsTotal = Double(faces.count) * (1.0 + Double(options.miningRounds) + 0.5) + fits * unitsPerFit
        var report = DetectorTrainingReport()
        let window = options.window
        var rng = SplitMix64(seed: options.seed)

        // Positives.
        var positives: [Float] = []
        var negatives: [Float] = []
        let d = dimensions
        for (i, face) in faces.enumerated() {
            for variant in [face, face.mirrored()] {
                for shrunk in options.halfStepScales ? [false, true] : [false] {
                    let sample = shrunk ? Self.shrunkByHalfStep(variant, levelsPerOctave: window.levelsPerOctave) : variant
                    if let f = positiveWindow(sample) { positives.append(contentsOf: f) }
                }
                negatives.append(contentsOf: randomNegatives(variant, count: options.randomNegativesPerImage, rng: &rng))
            }
            advance("positives", i + 1, faces.count, units: 1)
        }
        var model = fit(positives: positives, negatives: negatives, round: 0, report: &report)

        // Hard-negative mining.
        for round in 1 ... max(1, options.miningRounds) where options.miningRounds > 0 {
            var added = 0
            var missed = 0
            for (i, face) in faces.enumerated() {
                for variant in [face, face.mirrored()] {
                    let (hard, positiveScore) = hardNegatives(variant, filter: model.filters[0], count: options.hardNegativesPerImage)
                    negatives.append(contentsOf: hard)
                    added += hard.count / d
                    if positiveScore < 0 { missed += 1 }
                }
                advance("mining round \(round)", i + 1, faces.count, units: 1)
            }
            report.roundsLog.append("round \(round): \(added) hard negatives, \(missed) of \(2 * faces.count) positives scored < 0 before retraining")
            if negatives.count / d > options.maxNegatives {
                negatives = dropEasiest(negatives, keep: options.maxNegatives, filter: model.filters[0])
            }
            model = fit(positives: positives, negatives: negatives, round: round, report: &report)
        }
        report.positives = positives.count / d
        report.negatives = negatives.count / d
        // Threshold calibration on the training faces (not mirrored).
        let calibration = DetectorEvaluation.run(HOGFaceDetector(model: model), on: faces, threshold: -3) { done, total in
            self.advance("calibration", done, total, units: 0.5)
        }
        let threshold = max(calibration.threshold(forRecall: options.targetRecall),
                            calibration.threshold(forFalsePositivesPerImage: options.maxFalsePositivesPerImage))
        let atThreshold = calibration.summary(threshold: threshold)
        model.threshold = threshold
        // Early rejection, set from the positives that score within 0.5 of the threshold (the
        // others are missed anyway): reject below the lowest of their partial scores, minus a margin.
        if options.pruneRows > 0 && options.pruneRows < window.cells {
            var lowest = Float.infinity
            for i in 0 ..< report.positives {
                let sample = Array(positives[i * d ..< (i + 1) * d])
                guard model.filters[0].score(window: sample) >= threshold - 0.5 else { continue }
                lowest = min(lowest, model.filters[0].partialScore(window: sample, rows: options.pruneRows))
            }
            if lowest.isFinite {
                model.filters[0].pruneRows = options.pruneRows
                model.filters[0].pruneThreshold = lowest - options.pruneMargin
                report.roundsLog.append(String(format: "early rejection after %d rows below %.3f (lowest partial score of a positive scoring >= threshold - 0.5: %.3f)",
                                               options.pruneRows, lowest - options.pruneMargin, lowest))
            }
        }
        report.threshold = threshold
        report.trainingRecall = atThreshold.recall
        report.trainingFalsePositivesPerImage = atThreshold.falsePositivesPerImage
        return (model, report)
    }

    // MARK: Samples

    /// The face image shrunk by half a pyramid step, with its boxes scaled alike.
    static func shrunkByHalfStep(_ face: DetectorTrainingFace, levelsPerOctave: Int) -> DetectorTrainingFace {
        let f = Float(exp2(-0.5 / Double(levelsPerOctave)))
        let w = max(1, Int((Float(face.image.width) * f).rounded())), h = max(1, Int((Float(face.image.height) * f).rounded()))
        var small = GrayImage(width: 0, height: 0)
        ImageResizer(sourceWidth: face.image.width, sourceHeight: face.image.height, targetWidth: w, targetHeight: h, method: .area)
            .resize(face.image, into: &small)
        let sx = Float(w) / Float(face.image.width), sy = Float(h) / Float(face.image.height)
        func scale(_ b: FaceBox) -> FaceBox {
            FaceBox(x: (b.x + 0.5) * sx - 0.5, y: (b.y + 0.5) * sy - 0.5, width: b.width * sx, height: b.height * sy)
        }
        return DetectorTrainingFace(name: face.name + "#shrunk", image: small, box: scale(face.box), valid: scale(face.valid),
                                    mayContainOtherFaces: face.mayContainOtherFaces)
    }

    /// The window closest to the annotated box over all levels (nil if none overlaps it by IoU ≥ 0.5).
    private func positiveWindow(_ face: DetectorTrainingFace) -> [Float]? {
        let window = options.window
        var best: [Float]?
        var bestIoU: Float = 0.5
        pyramid.forEachLevel(of: face.image, minCellsX: window.cells, minCellsY: window.cells) { level in
            let cell = Float(HOGFeatureMap.cellSize)
            let ex = (face.box.x + 0.5) * level.scaleX, ey = (face.box.y + 0.5) * level.scaleY
            let side = face.box.width * level.scaleX
            if side < Float(window.faceSidePixels) * 0.7 { return false }
            let cx = Int((ex / cell).rounded()) - window.faceOffset
            let cy = Int((ey / cell).rounded()) - window.faceOffset
            guard cx >= 0, cy >= 0, cx + window.cells <= level.features.cellsX, cy + window.cells <= level.features.cellsY else { return true }
            let iou = window.faceBox(cellX: cx, cellY: cy, scaleX: level.scaleX, scaleY: level.scaleY).iou(face.box)
            if iou > bestIoU {
                bestIoU = iou
                best = level.features.window(x: cx, y: cy, width: window.cells, height: window.cells)
            }
            return true
        }
        return best
    }

    /// Whether the window at (x, y) of `level` may serve as a negative of `face`.
    private func isNegative(_ face: DetectorTrainingFace, _ level: HOGPyramid.Level, _ x: Int, _ y: Int) -> Bool {
        let window = options.window
        let box = window.faceBox(cellX: x, cellY: y, scaleX: level.scaleX, scaleY: level.scaleY)
        if box.iou(face.box) >= options.negativeMaxIoU { return false }
        let whole = window.windowBox(cellX: x, cellY: y, scaleX: level.scaleX, scaleY: level.scaleY)
        let ix = max(0, min(whole.x + whole.width, face.valid.x + face.valid.width) - max(whole.x, face.valid.x))
        let iy = max(0, min(whole.y + whole.height, face.valid.y + face.valid.height) - max(whole.y, face.valid.y))
        if ix * iy < 0.7 * whole.width * whole.height { return false }
        if face.mayContainOtherFaces {
            let ratio = box.width / face.box.width
            if ratio > 0.5 && ratio < 2 { return false }
        }
        return true
    }

    private func randomNegatives(_ face: DetectorTrainingFace, count: Int, rng: inout SplitMix64) -> [Float] {
        let window = options.window
        let d = dimensions
        var reservoir: [Float] = []
        var seen = 0
        pyramid.forEachLevel(of: face.image, minCellsX: window.cells, minCellsY: window.cells) { level in
            let maxX = level.features.cellsX - window.cells, maxY = level.features.cellsY - window.cells
            if maxX < 0 || maxY < 0 { return true }
            for y in 0 ... maxY {
                for x in 0 ... maxX where isNegative(face, level, x, y) {
                    seen += 1
                    if seen <= count {
                        reservoir.append(contentsOf: level.features.window(x: x, y: y, width: window.cells, height: window.cells))
                    } else {
                        let j = Int(rng.next() % UInt64(seen))
                        if j < count {
                            let f = level.features.window(x: x, y: y, width: window.cells, height: window.cells)
                            reservoir.replaceSubrange(j * d ..< (j + 1) * d, with: f)
                        }
                    }
                }
            }
            return true
        }
        return reservoir
    }

    /// The `count` highest-scoring negative windows scoring above -1 (the SVM margin), at most one
    /// per 3x3-cell neighbourhood of a level, and the best score of a window matching the face.
    private func hardNegatives(_ face: DetectorTrainingFace, filter: LinearWindowFilter, count: Int) -> ([Float], Float) {
        let window = options.window
        struct Candidate { var score: Float; var level: Int; var x: Int; var y: Int; var features: [Float] }
        var kept: [Candidate] = []
        var positiveScore = -Float.infinity
        var scores: [Float] = []
        pyramid.forEachLevel(of: face.image, minCellsX: window.cells, minCellsY: window.cells) { level in
            let size = filter.scoreMap(level.features, into: &scores)
            for y in 0 ..< size.height {
                for x in 0 ..< size.width {
                    let s = scores[y * size.width + x]
                    if s <= -1 { continue }
                    if window.faceBox(cellX: x, cellY: y, scaleX: level.scaleX, scaleY: level.scaleY).iou(face.box) >= 0.5 {
                        positiveScore = max(positiveScore, s)
                    }
                    if kept.count == count, let worst = kept.last, s <= worst.score { continue }
                    guard isNegative(face, level, x, y) else { continue }
                    if let j = kept.firstIndex(where: { $0.level == level.index && abs($0.x - x) <= 1 && abs($0.y - y) <= 1 }) {
                        if kept[j].score >= s { continue }
                        kept.remove(at: j)
                    }
                    let c = Candidate(score: s, level: level.index, x: x, y: y,
                                      features: level.features.window(x: x, y: y, width: window.cells, height: window.cells))
                    let at = kept.firstIndex(where: { $0.score < s }) ?? kept.count
                    kept.insert(c, at: at)
                    if kept.count > count { kept.removeLast() }
                }
            }
            return true
        }
        return (kept.flatMap(\.features), positiveScore)
    }

    private func dropEasiest(_ negatives: [Float], keep: Int, filter: LinearWindowFilter) -> [Float] {
        let d = dimensions
        let n = negatives.count / d
        var scored: [(Float, Int)] = []
        negatives.withUnsafeBufferPointer { x in
            filter.weights.withUnsafeBufferPointer { w in
                for i in 0 ..< n { scored.append((dot(w.baseAddress!, x.baseAddress! + i * d, d), i)) }
            }
        }
        scored.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        let chosen = scored.prefix(keep).map(\.1).sorted()
        var out: [Float] = []
        out.reserveCapacity(chosen.count * d)
        for i in chosen { out.append(contentsOf: negatives[i * d ..< (i + 1) * d]) }
        return out
    }

    // MARK: Fitting

    private func fit(positives: [Float], negatives: [Float], round: Int, report: inout DetectorTrainingReport) -> HOGFaceDetectorModel {
        let d = dimensions
        let np = positives.count / d, nn = negatives.count / d
        advance("svm round \(round) (\(np) pos, \(nn) neg)", 0, 1, units: 0)
        let labels = [Float](repeating: 1, count: np) + [Float](repeating: -1, count: nn)
        let svm = LinearSVM(costPositive: options.cost * options.positiveWeight, costNegative: options.cost)
        let solution = svm.train(samples: positives + negatives, labels: labels, dimensions: d, seed: options.seed &+ UInt64(round))
        var weights = solution.weights
        for c in 0 ..< options.window.cells * options.window.cells { weights[c * HOGFeatureMap.stride + HOGFeatureMap.dimensions] = 0 }
        report.roundsLog.append("svm round \(round): \(np) positives, \(nn) negatives, \(solution.epochs) epochs")
        self.advance("svm round \(round) (\(np) pos, \(nn) neg)", 1, 1, units: unitsPerFit)
        let filter = LinearWindowFilter(cellsX: options.window.cells, cellsY: options.window.cells, weights: weights, bias: solution.bias)
        return HOGFaceDetectorModel(window: options.window, filters: [filter], threshold: 0)
    }
}
