import FaceDetection
import Imaging

/// The detector's boxes made mirror-symmetric, for `FaceTrackerConfiguration.mirrorAveraged`: the
/// detector runs on the frame and on its left-right mirror (x → width − 1 − x), the mirror's boxes are
/// mapped back, and each box is averaged with the mirror's box that overlaps it most (IoU > 0.5);
/// unpaired boxes are kept as they are, and all are ordered by score. The fit from a box depends on
/// the box (the cascade's start), and the HOG detector's boxes on a mirrored frame are not the
/// mirrors of its boxes: a 512² photo (`Models/demo/astronaut.jpg`, PNG, exact hflip) measured far PD
/// 63.01 and mirrored 64.11 mm with the fits mirror-averaged from each image's own box. Costs a
/// second detection on the frames that detect (a video's first). Not thread-safe.
struct MirrorAveragedDetection {
    private var mirrored = GrayImage(width: 0, height: 0)

    mutating func boxes(_ detector: any FaceDetector, in gray: GrayImage) -> [FaceBox] {
        let direct = detector.detect(in: gray)
        mirrored.setMirrored(of: gray)
        let flipped = detector.detect(in: mirrored).map { $0.mirrored(imageWidth: gray.width) }
        var paired = [Bool](repeating: false, count: flipped.count)
        var out: [FaceBox] = []
        for b in direct {
            var best = -1, bestIoU: Float = 0.5
            for (j, f) in flipped.enumerated() where !paired[j] {
                let o = b.iou(f)
                if o > bestIoU { best = j; bestIoU = o }
            }
            guard best >= 0 else { out.append(b); continue }
            paired[best] = true
            let f = flipped[best]
            out.append(FaceBox(x: (b.x + f.x) / 2, y: (b.y + f.y) / 2, width: (b.width + f.width) / 2, height: (b.height + f.height) / 2,
                               score: (b.score + f.score) / 2))
        }
        for (j, f) in flipped.enumerated() where !paired[j] { out.append(f) }
        return out.sorted { $0.score > $1.score }
    }
}
