/// Greedy non-maximum suppression: keeps the best-scoring box, drops every remaining box that
/// overlaps it by IoU > `maxIoU` or whose intersection covers more than `maxCoverage` of the
/// smaller box (a face box nested in a larger one), and repeats. Returns the kept boxes, best first.
public func nonMaximumSuppression(_ boxes: [FaceBox], maxIoU: Float = 0.3, maxCoverage: Float = 0.7) -> [FaceBox] {
    let sorted = boxes.sorted { $0.score > $1.score }
    var kept: [FaceBox] = []
    for b in sorted {
        var keep = true
        for k in kept {
            if b.iou(k) > maxIoU { keep = false; break }
            let ix = max(0, min(b.x + b.width, k.x + k.width) - max(b.x, k.x))
            let iy = max(0, min(b.y + b.height, k.y + k.height) - max(b.y, k.y))
            let smaller = min(b.width * b.height, k.width * k.height)
            if smaller > 0 && ix * iy / smaller > maxCoverage { keep = false; break }
        }
        if keep { kept.append(b) }
    }
    return kept
}
