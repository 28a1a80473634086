import FaceDetection
import FaceMarkup
import Foundation
import Imaging

/// Detection mode: the fit from a detector box, refined as `detectionRefinement` says.
extension LandmarkCascade {
    /// A detection-mode result: the chosen fit and how many cascade fits it took (its cost).
    public struct DetectionFit: Sendable {
        public var fitted: FittedShape
        public var fitCount: Int
        /// The scorer's log-odds for `fitted`, when a scorer ran.
        public var score: Float?
        /// The cost and score without the shape (which shares the workspace's buffers).
        var counts: (fitCount: Int, score: Float?) { (fitCount, score) }
    }

    /// The detector box a shape implies: the inverse of the learned box-to-shape mapping, taken through
    /// the canonical box (the convention the detector is trained on). The box-start shape's canonical
    /// box sits at `c_q` with side `s_q` in box units, so a shape whose canonical box has centre `C` and
    /// side `S` implies the box of side `S / s_q` centred at `C − (S / s_q) · c_q`. (A least-squares
    /// similarity onto the box shape instead shrinks the box of a turned face, whose landmark box
    /// is narrow: training-split NME 3.21 % against 3.12 % when always refitting.)
    public func impliedBox(for shape: [SIMD2<Float>]) -> FaceBox {
        let q = FaceBox.canonical(landmarks: boxShape), f = FaceBox.canonical(landmarks: shape)
        let side = f.width / max(q.width, .ulpOfOne)
        let c = f.centre - side * q.centre
        return FaceBox(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side)
    }

    /// `landmarksWithFeatures(in:box:)` with its cost and score.
    public func detectionFit(in image: GrayImage, box: FaceBox) -> DetectionFit {
        var workspace = Workspace(cascade: self)
        return detectionFit(in: image, box: box, workspace: &workspace)
    }

    /// `detectionFit(in:box:)` running every fit in `workspace` (no descriptor tables, crop or
    /// scratch built per fit). The result shares the workspace's buffers until its next fit.
    public func detectionFit(in image: GrayImage, box: FaceBox, workspace: inout Workspace) -> DetectionFit {
        guard let mirror = detectionRefinement.mirror, landmarkCount == IBUG68.count else {
            return startsFit(in: image, box: box, workspace: &workspace)
        }
        // Only counts and scores are held from each fit: holding its shape would share the buffers the
        // next fit overwrites and make it copy them.
        let direct = startsFit(in: image, box: box, workspace: &workspace).counts
        workspace.directShape.overwrite(with: workspace.bestShape)
        workspace.directFeatures.overwrite(with: workspace.bestFeatures)
        // The mirrored fit reads only the mirrored square around the box (moved out of the workspace
        // while the workspace fits in it, and back, so its storage is reused).
        var region = GrayImage(width: 0, height: 0)
        swap(&region, &workspace.mirrorImage)
        var map = MirroredRegion()
        map.update(&region, scratch: &workspace.mirrorCrop, from: image, around: box, referenceSide: referenceSide)
        let flipped = startsFit(in: region, box: map.regionBox(for: box), workspace: &workspace).counts
        swap(&region, &workspace.mirrorImage)
        workspace.mirrorShape.resize(to: landmarkCount, filler: .zero)
        for i in 0..<landmarkCount { workspace.mirrorShape[i] = map.imagePoint(workspace.bestShape[IBUG68.mirror[i]]) }
        var takeMean = true
        if case .meanWhereAgreeing(let within) = mirror {
            takeMean = PointDistance.mean(workspace.directShape, workspace.mirrorShape) <= within * spread(of: workspace.directShape)
        }
        let fits = direct.fitCount + flipped.fitCount
        if takeMean {
            for i in 0..<landmarkCount { workspace.bestShape[i] = 0.5 * (workspace.directShape[i] + workspace.mirrorShape[i]) }
        } else if let m = flipped.score, let d = direct.score, m > d {
            // The mirrored fit whole: its features (read in the mirrored square) are what it was judged on.
            workspace.bestShape.overwrite(with: workspace.mirrorShape)
            return DetectionFit(fitted: FittedShape(landmarks: workspace.bestShape, features: workspace.bestFeatures), fitCount: fits, score: m)
        } else {
            workspace.bestShape.overwrite(with: workspace.directShape)
        }
        workspace.bestFeatures.overwrite(with: workspace.directFeatures)
        return DetectionFit(fitted: FittedShape(landmarks: workspace.bestShape, features: workspace.bestFeatures), fitCount: fits, score: direct.score)
    }

    /// Detection mode without the mirror: the starts of `detectionRefinement` and their consensus.
    /// The result is in `workspace.bestShape` / `bestFeatures`.
    func startsFit(in image: GrayImage, box: FaceBox, workspace: inout Workspace) -> DetectionFit {
        let r = detectionRefinement
        var fits = 0
        let first = refinedFit(image, box: box, refitBelowIoU: r.refitBelowIoU, fits: &fits, workspace: &workspace)
        // The best fit so far is copied into the workspace's own buffers (holding a fit that shares the
        // working buffers made every further fit copy them: detection runs on every frame while no face is
        // tracked, and should allocate nothing either).
        workspace.keepBest()
        guard let scorer = r.scorer else {
            return DetectionFit(fitted: FittedShape(landmarks: workspace.bestShape, features: workspace.bestFeatures), fitCount: fits, score: nil)
        }
        var bestScore = scorer.fitScore(first)
        workspace.startShapes.removeAll(keepingCapacity: true)
        workspace.startScores.removeAll(keepingCapacity: true)
        if r.consensus != .best { workspace.keepStart(score: bestScore) }
        var centre = box
        let shifts = r.retryShifts, scales = r.retryScales
        for _ in 0..<r.retryRounds where bestScore < r.retryBelowScore {
            let side = (centre.width + centre.height) / 2
            // The box moved by each shift, then scaled by each scale.
            for k in 0..<(shifts.count + scales.count) {
                let (c, s) = k < shifts.count ? (centre.centre + SIMD2(0, shifts[k] * side), side) : (centre.centre, scales[k - shifts.count] * side)
                // Extra starts always refit: a start a sixth of a face off can fit with an implied box close
                // to itself and still be off (training split, boxes 30 % off: 77 vs 307 failures of 1,761).
                let score = scorer.fitScore(refinedFit(image, box: FaceBox(x: c.x - s / 2, y: c.y - s / 2, width: s, height: s),
                                                       refitBelowIoU: .infinity, fits: &fits, workspace: &workspace))
                if r.consensus != .best { workspace.keepStart(score: score) }
                if score > bestScore + r.retryMargin { workspace.keepBest(); bestScore = score }
            }
            // The next round searches around the box the best fit so far implies.
            centre = impliedBox(for: workspace.bestShape)
        }
        switch r.consensus {
        case .best: break
        case .median(let within): consensusOfStarts(within: within, bestScore: bestScore, median: true, workspace: &workspace)
        case .weightedMean(let within): consensusOfStarts(within: within, bestScore: bestScore, median: false, workspace: &workspace)
        }
        return DetectionFit(fitted: FittedShape(landmarks: workspace.bestShape, features: workspace.bestFeatures), fitCount: fits, score: bestScore)
    }

    /// Replaces `workspace.bestShape` by the per-point median or score-weighted mean of the kept
    /// starts (`Workspace.keepStart`) whose mean point distance to it is at most `within` · spread.
    /// Features and score stay the best fit's.
    private func consensusOfStarts(within: Float, bestScore: Float, median: Bool, workspace: inout Workspace) {
        let n = landmarkCount, count = workspace.startScores.count
        guard count > 1 else { return }
        let limit = within * spread(of: workspace.bestShape)
        var members: [Int] = []
        for s in 0..<count where PointDistance.mean(workspace.bestShape, workspace.startShapes[(s * n)..<((s + 1) * n)]) <= limit {
            members.append(s)
        }
        guard members.count > 1 else { return }
        if median {
            var xs = [Float](repeating: 0, count: members.count), ys = xs
            for i in 0..<n {
                for (m, s) in members.enumerated() { xs[m] = workspace.startShapes[s * n + i].x; ys[m] = workspace.startShapes[s * n + i].y }
                xs.sort(); ys.sort()
                let h = members.count / 2
                workspace.bestShape[i] = members.count % 2 == 1 ? SIMD2(xs[h], ys[h]) : SIMD2(xs[h - 1] + xs[h], ys[h - 1] + ys[h]) / 2
            }
        } else {
            let weights = members.map { exp(workspace.startScores[$0] - bestScore) }
            let total = weights.reduce(0, +)
            for i in 0..<n {
                var p = SIMD2<Float>(0, 0)
                for (m, s) in members.enumerated() { p += weights[m] * workspace.startShapes[s * n + i] }
                workspace.bestShape[i] = p / total
            }
        }
    }

    /// The scale `StartConsensus` and `MirrorCombination` distances are measured in: the
    /// inter-ocular distance of a 68-point shape, else its canonical box side.
    func spread(of shape: [SIMD2<Float>]) -> Float {
        landmarkCount == IBUG68.count ? IBUG68.interOcular(shape) : FaceBox.canonical(landmarks: shape).width
    }

    /// One start: the fit from `box`, refitted from the box it implies when the two disagree.
    func refinedFit(_ image: GrayImage, box: FaceBox, refitBelowIoU: Float, fits: inout Int, workspace: inout Workspace) -> FittedShape {
        initialShape(for: box, into: &workspace.shape)
        workspace.fitFromShape(self, image: .gray(image))
        fits += 1
        let implied = impliedBox(for: workspace.shape)
        guard implied.iou(box) < refitBelowIoU else { return workspace.fitted }
        fits += 1
        initialShape(for: implied, into: &workspace.shape)
        workspace.fitFromShape(self, image: .gray(image))
        return workspace.fitted
    }
}
