import Imaging

/// A box that survived non-maximum suppression, with the best-scoring windows of clearly different
/// size that it suppressed (at most `perSide` larger and `perSide` smaller), so that a judge of the fit, not the
/// window score, decides between them.
///
/// Why: the HOG window score compares windows of one size well and windows of different sizes badly.
/// On `lorgnette eval photos --protocol canvas` (validation faces x0.5-x8 in 4000x3000 scenes) 4 of
/// 200 scenes lost their face that way: the face's own window passed the threshold, but a box 1.8-4x
/// larger around it (or a small one inside it) scored higher, and the fit from that box missed the face.
public struct ContestedBox: Sendable, Equatable {
    /// The box non-maximum suppression kept.
    public var box: FaceBox
    /// Suppressed windows overlapping `box` whose side differs from it by at least the rival ratio,
    /// best first: the best larger ones and the best smaller ones, when they exist.
    public var rivals: [FaceBox]
    /// A window under the detector's threshold that is not a rival of any kept box: fitted only when
    /// no other box of the photo gives a face (`PhotoFaceDetector.standbyCount`).
    public var standby: Bool

    public init(box: FaceBox, rivals: [FaceBox] = [], standby: Bool = false) {
        self.box = box
        self.rivals = rivals
        self.standby = standby
    }
}

/// A detector that can say which suppressed windows competed with each box it keeps.
public protocol ContestedFaceDetector: FaceDetector {
    /// `detect(in:)`'s boxes (same order), each with its rivals.
    func detectContested(in image: GrayImage) -> [ContestedBox]
}

/// The rivals of each kept box among `candidates` (every window over the threshold, before
/// suppression): a candidate is a rival of the kept box that suppressed it (the first kept box it
/// overlaps by the suppression rule: IoU > `maxIoU` or covering `maxCoverage` of the smaller box)
/// when their sides differ by a factor of at least `minimumSideRatio`. Same-size neighbours are the
/// same face one cell over, and left to the suppression. Of the larger and of the smaller rivals,
/// the suppression is run again among themselves and the best `perSide` are kept: the single best
/// smaller window inside a large box is often beside the face, not on it (canvas scene
/// afw_1814664578_2 x0.5: the face's window scored -0.505 under a x1.81 box, and a higher-scoring
/// small window off the face took the one place).
public func contestedBoxes(kept: [FaceBox], candidates: [FaceBox], minimumSideRatio: Float = 1.5, perSide: Int = 2,
                           maxIoU: Float = 0.3, maxCoverage: Float = 0.7) -> [ContestedBox] {
    var larger = [[FaceBox]](repeating: [], count: kept.count)
    var smaller = [[FaceBox]](repeating: [], count: kept.count)
    for c in candidates {
        guard let k = kept.firstIndex(where: { suppresses($0, c, maxIoU: maxIoU, maxCoverage: maxCoverage) }) else { continue }
        let ratio = c.width / max(kept[k].width, .ulpOfOne)
        if ratio >= minimumSideRatio { larger[k].append(c) }
        if ratio <= 1 / minimumSideRatio { smaller[k].append(c) }
    }
    return kept.indices.map { k in
        let best = { (side: [FaceBox]) in nonMaximumSuppression(side, maxIoU: maxIoU, maxCoverage: maxCoverage).prefix(perSide) }
        return ContestedBox(box: kept[k], rivals: (best(larger[k]) + best(smaller[k])).sorted { $0.score > $1.score })
    }
}
