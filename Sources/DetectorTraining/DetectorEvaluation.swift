import FaceDetection

/// Detection results over annotated faces (one annotated face per image), kept at every score so
/// recall and false positives can be read off at any threshold.
///
/// A face is found when a detection (after NMS) overlaps its canonical box with IoU ≥ 0.5; its
/// score is the best such detection's. Every other detection counts as a false positive — in
/// AFW crops some of those are real but unannotated faces, so the false-positive rate is an upper
/// bound there.
public struct DetectorEvaluation: Sendable {
    /// Per image: score of the best matching detection, or -infinity when none matched.
    public var matchScores: [Float] = []
    /// Per image: IoU of that detection with the annotated box (0 when none matched).
    public var matchIoUs: [Float] = []
    /// Scores of all unmatched detections.
    public var falsePositiveScores: [Float] = []
    public var imageCount = 0
    /// Total wall time spent in `detect` / candidate scanning, seconds.
    public var detectionSeconds: Double = 0
    public var pixelCount = 0

    public struct Summary: Sendable {
        public var threshold: Float
        public var recall: Float
        public var falsePositivesPerImage: Float
        public var meanIoU: Float
    }

    public init() {}

    /// Runs `detector` with `threshold` (use a low one to evaluate many thresholds later).
    public static func run(_ detector: HOGFaceDetector, on faces: [DetectorTrainingFace], threshold: Float,
                           progress: (Int, Int) -> Void = { _, _ in }) -> DetectorEvaluation {
        var e = DetectorEvaluation()
        let clock = ContinuousClock()
        for (i, face) in faces.enumerated() {
            var detections: [FaceBox] = []
            let t = clock.measure {
                detections = nonMaximumSuppression(detector.candidates(in: face.image, threshold: threshold))
            }
            e.detectionSeconds += Double(t.components.seconds) + Double(t.components.attoseconds) * 1e-18
            e.pixelCount += face.image.width * face.image.height
            e.add(detections: detections, truth: face.box)
            progress(i + 1, faces.count)
        }
        return e
    }

    /// Adds one image's detections (best first) against its annotated box.
    public mutating func add(detections: [FaceBox], truth: FaceBox) {
        imageCount += 1
        var matched: Int?
        for (j, d) in detections.enumerated() where d.iou(truth) >= 0.5 {
            if matched == nil || d.score > detections[matched!].score { matched = j }
        }
        matchScores.append(matched.map { detections[$0].score } ?? -.infinity)
        matchIoUs.append(matched.map { detections[$0].iou(truth) } ?? 0)
        for (j, d) in detections.enumerated() where j != matched { falsePositiveScores.append(d.score) }
    }

    /// The highest threshold at which at least `recall` of the faces are found (the lowest
    /// matched score if that recall is never reached).
    public func threshold(forRecall recall: Float) -> Float {
        let found = matchScores.filter(\.isFinite).sorted(by: >)
        guard !found.isEmpty else { return 0 }
        let needed = Int((recall * Float(matchScores.count)).rounded(.up))
        return found[min(max(needed, 1), found.count) - 1]
    }

    /// The lowest threshold at which at most `rate` false positives per image remain.
    public func threshold(forFalsePositivesPerImage rate: Float) -> Float {
        let allowed = Int((rate * Float(max(imageCount, 1))).rounded(.down))
        let sorted = falsePositiveScores.sorted(by: >)
        guard sorted.count > allowed else { return -.infinity }
        // Just above the (allowed + 1)-th highest false positive.
        return sorted[allowed].nextUp
    }

    public func summary(threshold: Float) -> Summary {
        let n = max(imageCount, 1)
        var found = 0
        var iouSum: Float = 0
        for (s, iou) in zip(matchScores, matchIoUs) where s >= threshold { found += 1; iouSum += iou }
        let fp = falsePositiveScores.reduce(0) { $0 + ($1 >= threshold ? 1 : 0) }
        return Summary(threshold: threshold, recall: Float(found) / Float(n),
                       falsePositivesPerImage: Float(fp) / Float(n), meanIoU: found > 0 ? iouSum / Float(found) : 0)
    }
}
