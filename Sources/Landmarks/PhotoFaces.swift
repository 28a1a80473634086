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
    /// detection mode; with a fit judge (`detectionRefinement.scorer`), boxes whose best fit it scores
    /// below `minimumFitScore` log-odds are dropped (a false detection gives a fit that does not look
    /// like a face), and boxes whose fits land on the same face (implied boxes overlapping by IoU
    /// > 0.5) keep the better-judged one. Ordered best first: by fit score, else by detector score.
    public func faces(in image: GrayImage, detector: FaceDetector, minimumFitScore: Float = PhotoFaceJudging.minimumFitScore) -> [PhotoFace] {
        var faces: [PhotoFace] = []
        for box in detector.detect(in: image) {
            let fit = detectionFit(in: image, box: box)
            if let score = fit.score, score < minimumFitScore { continue }
            faces.append(PhotoFace(box: box, landmarks: fit.fitted.landmarks, fitScore: fit.score))
        }
        faces.sort { ($0.fitScore ?? $0.box.score) > ($1.fitScore ?? $1.box.score) }
        var kept: [PhotoFace] = []
        for face in faces {
            let implied = impliedBox(for: face.landmarks)
            if kept.contains(where: { impliedBox(for: $0.landmarks).iou(implied) > 0.5 }) { continue }
            kept.append(face)
        }
        return kept
    }
}

/// The fit judge's threshold for photographs (see `LandmarkCascade.faces(in:detector:)`).
public enum PhotoFaceJudging {
    /// Log-odds below which a detection's fit is taken for a false detection.
    public static let minimumFitScore: Float = 0
}
