import FaceDetection
import Imaging

/// One face found in a photograph: the detector's box, the detection-mode fit, and the fit judge's
/// log-odds that the fit lies on a face (nil without a judge).
public struct PhotoFace: Sendable {
    public var box: FaceBox
    public var landmarks: [SIMD2<Float>]
    public var fitScore: Float?
}

extension LandmarkCascade {
    /// Every face of a photograph, as `lorgnette landmarks` reports them: each detector box fitted in
    /// detection mode; with a fit judge (`detectionRefinement.scorer`), a box's suppressed rivals of
    /// clearly different size (`ContestedFaceDetector`) are fitted too and the better-judged fit of
    /// the group stands for it (`contestedFit`), boxes whose fit it scores below `minimumFitScore`
    /// log-odds are dropped (a false detection gives a fit that does not look like a face), and boxes
    /// whose fits land on the same face (implied boxes overlapping by IoU > 0.5) keep the
    /// better-judged one. Ordered best first: by fit score, else by detector score.
    public func faces(in image: GrayImage, detector: FaceDetector, minimumFitScore: Float = PhotoFaceJudging.minimumFitScore,
                      standbyFitScore: Float = PhotoFaceJudging.standbyFitScore) -> [PhotoFace] {
        let groups = (detector as? ContestedFaceDetector)?.detectContested(in: image) ?? detector.detect(in: image).map { ContestedBox(box: $0) }
        // The mirrored fit's plain mean moves points, not the score the judge and the merge read (the
        // direct fit's), so only the faces reported pay for it: busy 12 MP canvases give about 34
        // kept boxes and 16 rivals a scene, nearly all of them dropped (`eval photos --protocol
        // canvas --limit 40`: fits 800.7 ms a scene with the mirror on every box).
        var judging = self
        let mirrorLast = detectionRefinement.mirror == .mean
        if mirrorLast { judging.detectionRefinement.mirror = nil }
        var faces: [PhotoFace] = []
        for group in groups where !group.standby {
            let face = judging.contestedFit(in: image, group)
            if let score = face.fitScore, score < minimumFitScore { continue }
            faces.append(face)
        }
        // No box gave a face: the photo's best weak windows, each judged as a box of its own. Without
        // a judge nothing could tell them from the background, so they are not fitted.
        if faces.isEmpty && detectionRefinement.scorer != nil {
            for group in groups where group.standby {
                let face = judging.contestedFit(in: image, group)
                if let score = face.fitScore, score >= max(minimumFitScore, standbyFitScore) { faces.append(face) }
            }
        }
        faces.sort { ($0.fitScore ?? $0.box.score) > ($1.fitScore ?? $1.box.score) }
        var kept: [PhotoFace] = []
        for face in faces {
            let implied = impliedBox(for: face.landmarks)
            if kept.contains(where: { impliedBox(for: $0.landmarks).iou(implied) > 0.5 }) { continue }
            kept.append(face)
        }
        guard mirrorLast else { return kept }
        return kept.map { PhotoFace(box: $0.box, landmarks: detectionFit(in: image, box: $0.box).fitted.landmarks, fitScore: $0.fitScore) }
    }

    /// The detection-mode fit of a kept box, or of one of its rivals when the judge scores that fit
    /// higher by more than `PhotoFaceJudging.rivalMargin`. Without a judge, the kept box's fit (the
    /// window score alone cannot choose: it is what chose wrongly). The box reported is the one whose
    /// fit won. A rival replaces the kept box's fit; it is never reported beside it, so one window
    /// group gives at most one face.
    ///
    /// Cost: rivals are fitted only when the kept box's fit is doubtful (judged below
    /// `detectionRefinement.retryBelowScore`, the level at which detection mode itself tries more
    /// starts): a confident fit is a face, and the rivals' fits could only replace it with the
    /// same face. Each rival gets the full detection-mode fit: with one start only (no retries),
    /// canvas scene afw_14424972_1 x8 lost its face again (its window's single fit did not
    /// out-score the larger box's by the margin; with the retries it did). Measured on canvas photos
    /// (`lorgnette eval photos --protocol canvas --limit 8`: 4000x3000 scenes of upside-down crops,
    /// about 34 kept boxes and 16 rivals a scene, most kept fits doubtful): the fits' thread CPU
    /// 260 → 380 ms a scene; natural crops 3.9 ms a scene with rivals, tight crops 28.7 ms.
    public func contestedFit(in image: GrayImage, _ group: ContestedBox) -> PhotoFace {
        let fit = detectionFit(in: image, box: group.box)
        var best = PhotoFace(box: group.box, landmarks: fit.fitted.landmarks, fitScore: fit.score)
        guard let first = fit.score, first < detectionRefinement.retryBelowScore, !group.rivals.isEmpty else { return best }
        var bestScore = first
        for rival in group.rivals {
            let r = detectionFit(in: image, box: rival)
            if let score = r.score, score > bestScore + PhotoFaceJudging.rivalMargin {
                best = PhotoFace(box: rival, landmarks: r.fitted.landmarks, fitScore: score)
                bestScore = score
            }
        }
        return best
    }
}

/// The fit judge's threshold for photographs (see `LandmarkCascade.faces(in:detector:)`).
public enum PhotoFaceJudging {
    /// Log-odds below which a detection's fit is taken for a false detection.
    public static let minimumFitScore: Float = 0
    /// Log-odds a rival box's fit must out-score the kept box's fit by to replace it
    /// (`LandmarkCascade.contestedFit`); the same margin detection mode asks of its extra starts
    /// (`DetectionRefinement.retryMargin`), since two fits on one face differ by that much noise.
    public static let rivalMargin: Float = 0.5
    /// Log-odds a standby window's fit (a window under the detector's threshold, fitted because no
    /// box gave a face) needs to be reported.
    public static let standbyFitScore: Float = 0
}
