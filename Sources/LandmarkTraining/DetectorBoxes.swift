import FaceDetection
import Foundation
import Imaging

/// The boxes a face detector gives for annotated faces: what the landmark cascade's box-to-shape
/// mapping is learned from and evaluated with, so detector and regressor agree on the box convention.
///
/// A face is *found* when some detection overlaps its canonical box (`FaceBox.canonical`) with
/// IoU ≥ `minimumIoU`; the best-overlapping detection is its box. Without a detector every face gets
/// its canonical box.
public struct DetectorBoxes {
    public let detector: FaceDetector?
    public var minimumIoU: Float = 0.4

    public init(detector: FaceDetector?) { self.detector = detector }

    /// The detector's box for the face with landmarks `landmarks`, or nil when it was missed.
    public func box(in image: GrayImage, landmarks: [SIMD2<Float>]) -> FaceBox? {
        let canonical = FaceBox.canonical(landmarks: landmarks)
        guard let detector else { return canonical }
        var best: FaceBox?, bestIoU: Float = minimumIoU
        for b in detector.detect(in: image) {
            let iou = b.iou(canonical)
            if iou >= bestIoU { best = b; bestIoU = iou }
        }
        return best
    }

    /// Boxes for training: missed faces get their canonical box moved and scaled by the mean offset
    /// of the detector's boxes from the canonical ones, so they still train the same mapping.
    public static func fillMisses(_ boxes: [FaceBox?], landmarks: [[SIMD2<Float>]]) -> [FaceBox] {
        var shift = SIMD2<Float>(0, 0), logScale: Float = 0, found = 0
        for (b, l) in zip(boxes, landmarks) {
            guard let b else { continue }
            let c = FaceBox.canonical(landmarks: l)
            shift += (b.centre - c.centre) / c.width
            logScale += log((b.width + b.height) / 2 / c.width)
            found += 1
        }
        if found > 0 { shift /= Float(found); logScale /= Float(found) }
        return zip(boxes, landmarks).map { b, l in
            if let b { return b }
            let c = FaceBox.canonical(landmarks: l)
            let side = c.width * exp(logScale)
            let centre = c.centre + shift * c.width
            return FaceBox(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side)
        }
    }
}
