/// Greedy non-maximum suppression: keeps the best-scoring box, drops every remaining box that
/// overlaps it by IoU > `maxIoU` or whose intersection covers more than `maxCoverage` of the
/// smaller box (a face box nested in a larger one), and repeats. Returns the kept boxes, best first.
public func nonMaximumSuppression(_ boxes: [FaceBox], maxIoU: Float = 0.3, maxCoverage: Float = 0.7) -> [FaceBox] {
    let sorted = boxes.sorted { $0.score > $1.score }
    var kept: [FaceBox] = []
    for b in sorted where keeps(b, against: kept, maxIoU: maxIoU, maxCoverage: maxCoverage) { kept.append(b) }
    return kept
}

/// `nonMaximumSuppression` without allocating once the buffers have grown: sorts `boxes` in place
/// (stably, best first, as `sorted` does) and writes the kept boxes into `kept`. For a detector that
/// runs on every frame while no face is tracked.
func nonMaximumSuppression(sorting boxes: inout [FaceBox], into kept: inout [FaceBox], maxIoU: Float = 0.3, maxCoverage: Float = 0.7) {
    boxes.withUnsafeMutableBufferPointer { b in
        // Insertion sort: candidates are few (tens), and it is stable like the standard library's sort.
        for i in 1 ..< max(b.count, 1) {
            let x = b[i]
            var j = i
            while j > 0 && b[j - 1].score < x.score { b[j] = b[j - 1]; j -= 1 }
            b[j] = x
        }
    }
    kept.removeAll(keepingCapacity: true)
    for b in boxes where keeps(b, against: kept, maxIoU: maxIoU, maxCoverage: maxCoverage) { kept.append(b) }
}

/// Whether `b` survives every box already kept.
private func keeps(_ b: FaceBox, against kept: [FaceBox], maxIoU: Float, maxCoverage: Float) -> Bool {
    for k in kept where suppresses(k, b, maxIoU: maxIoU, maxCoverage: maxCoverage) { return false }
    return true
}

/// Whether non-maximum suppression with these limits drops `b` once `k` is kept.
func suppresses(_ k: FaceBox, _ b: FaceBox, maxIoU: Float, maxCoverage: Float) -> Bool {
    if b.iou(k) > maxIoU { return true }
    let ix = max(0, min(b.x + b.width, k.x + k.width) - max(b.x, k.x))
    let iy = max(0, min(b.y + b.height, k.y + k.height) - max(b.y, k.y))
    let smaller = min(b.width * b.height, k.width * k.height)
    return smaller > 0 && ix * iy / smaller > maxCoverage
}
