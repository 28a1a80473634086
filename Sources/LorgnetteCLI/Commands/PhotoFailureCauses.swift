import FaceDetection
import Imaging
import LandmarkTraining
import Landmarks

/// Why `eval photos` failed on a scene (NME > 0.08, misses included), so the biggest cause is the
/// one worked on: the detector never boxed the face, its box was found but the fit was dropped
/// (judged not a face, or merged into another face), or the fit from the matching box is off —
/// either also from the annotation's own canonical box (the landmark model cannot fit this face
/// at this size) or only from the detector's box (the box misled it). Scenes whose annotated
/// points leave the frame are counted apart as well (the face is cut by the edge).
struct PhotoFailureCauses {
    enum Cause: String, CaseIterable {
        case notDetected = "no detector box on the face"
        case dropped = "boxed, but the fit was dropped (judge or merge)"
        case modelFit = "fit off from the annotation's box too (landmark model)"
        case boxFit = "fit off from the detector's box only"
    }

    /// What decides a scene's cause, measured by `observe`.
    struct Scene {
        var failed: Bool
        var cause: Cause?
        var cutByEdge: Bool
        /// For a face the detector missed: the best score of any window on it (IoU ≥ 0.4), below
        /// the detector's threshold (nil when no scanned window overlaps it that much: too small).
        var bestWindowScore: Float?
        /// For a face the detector missed: its boxes that overlap the face at all (what won the
        /// non-maximum suppression there instead), as "IoU, side ratio to the face's box, score".
        var overlapping: [String] = []
    }

    private(set) var counts: [Cause: Int] = [:]
    private(set) var cut = 0
    private(set) var scenes = 0

    /// The cause of one scene's failure: `detector` are the boxes fitted (kept and rivals), `nme` the matched
    /// fit's inter-ocular NME (nil: no fit matched the face).
    static func observe(_ image: GrayImage, truth: [SIMD2<Float>], detector: [FaceBox], nme: Float?, cascade: LandmarkCascade,
                        finder: PhotoFaceDetector) -> Scene {
        let canonical = FaceBox.canonical(landmarks: truth)
        let cutByEdge = truth.contains { $0.x < -0.5 || $0.y < -0.5 || $0.x > Float(image.width) - 0.5 || $0.y > Float(image.height) - 0.5 }
        if let nme, nme <= 0.08 { return Scene(failed: false, cause: nil, cutByEdge: cutByEdge, bestWindowScore: nil) }
        let cause: Cause
        if !detector.contains(where: { $0.iou(canonical) >= 0.4 }) {
            finder.detector.minimumFaceSide = finder.smallestFaceSide(width: image.width, height: image.height)
            let windows = finder.detector.candidates(in: image, threshold: -.greatestFiniteMagnitude).filter { $0.iou(canonical) >= 0.4 }
            let near = detector.filter { $0.iou(canonical) > 0 }.map {
                String(format: "IoU %.2f, side x%.2f, score %.3f", $0.iou(canonical), $0.width / canonical.width, $0.score)
            }
            return Scene(failed: true, cause: .notDetected, cutByEdge: cutByEdge, bestWindowScore: windows.map(\.score).max(), overlapping: near)
        } else if nme == nil {
            cause = .dropped
        } else {
            let fromTruth = cascade.detectionFit(in: image, box: canonical).fitted.landmarks
            cause = AlignmentError.meanError(fromTruth, truth) / AlignmentError.normaliser(truth) > 0.08 ? .modelFit : .boxFit
        }
        return Scene(failed: true, cause: cause, cutByEdge: cutByEdge, bestWindowScore: nil)
    }

    mutating func add(_ scene: Scene) {
        scenes += 1
        guard scene.failed, let cause = scene.cause else { return }
        counts[cause, default: 0] += 1
        cut += scene.cutByEdge ? 1 : 0
    }

    /// One line: each cause's share of the scenes.
    var summary: String {
        let n = Double(max(1, scenes))
        let parts = Cause.allCases.map { c in "\(c.rawValue) \(counts[c] ?? 0) (\(String(format: "%.1f", 100 * Double(counts[c] ?? 0) / n)) %)" }
        return "failures by cause: " + parts.joined(separator: ", ") + "; of the failures \(cut) cut by the frame's edge"
    }
}
