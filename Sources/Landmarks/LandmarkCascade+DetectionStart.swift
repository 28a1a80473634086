import FaceDetection
import Imaging

/// Detection mode: the fit from a detector box, refined as `detectionRefinement` says.
extension LandmarkCascade {
    /// A detection-mode result: the chosen fit and how many cascade fits it took (its cost).
    public struct DetectionFit: Sendable {
        public var fitted: FittedShape
        public var fitCount: Int
        /// The scorer's log-odds for `fitted`, when a scorer ran.
        public var score: Float?
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
    /// scratch built per fit). The result shares the last fit's buffers with the workspace.
    public func detectionFit(in image: GrayImage, box: FaceBox, workspace: inout Workspace) -> DetectionFit {
        let r = detectionRefinement
        var fits = 0
        let first = refinedFit(image, box: box, refitBelowIoU: r.refitBelowIoU, fits: &fits, workspace: &workspace)
        guard let scorer = r.scorer else { return DetectionFit(fitted: first, fitCount: fits, score: nil) }
        var bestScore = scorer.fitScore(first)
        // The best fit so far is copied into the workspace's own buffers (holding a fit that shares the
        // working buffers made every further fit copy them: detection runs on every frame while no face is
        // tracked, and should allocate nothing either).
        workspace.keepBest()
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
                if score > bestScore + r.retryMargin { workspace.keepBest(); bestScore = score }
            }
            // The next round searches around the box the best fit so far implies.
            centre = impliedBox(for: workspace.bestShape)
        }
        return DetectionFit(fitted: FittedShape(landmarks: workspace.bestShape, features: workspace.bestFeatures), fitCount: fits, score: bestScore)
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
