import FaceDetection
import Imaging
import Landmarks
import Testing

/// One `LandmarkCascade.Workspace` reused fit after fit (as a tracker does, to allocate nothing per
/// frame) must give exactly what a fresh workspace gives, whatever the previous fit was: a face
/// that grows or shrinks changes the crop's size and reduction factor, and stale scratch must not
/// leak into the next fit.
@Suite struct WorkspaceReuseTests {
    /// Starts of very different sizes, so the reused crop grows, shrinks and changes factor.
    static let boxes = [FaceBox(x: 40, y: 50, width: 90, height: 90), FaceBox(x: 10, y: 5, width: 230, height: 230),
                        FaceBox(x: 100, y: 80, width: 50, height: 50), FaceBox(x: -30, y: 60, width: 140, height: 140),
                        FaceBox(x: 60, y: 40, width: 120, height: 120)]

    @Test(arguments: [Float(0), 0.5])
    func reusedWorkspaceFitsEqualFreshFits(shapeFeatureScale: Float) {
        var cascade = randomCascade(stages: 3, shapeFeatureScale: shapeFeatureScale)
        // Refits and scored extra starts: several fits per call, the best kept while others run.
        cascade.detectionRefinement = DetectionRefinement(refitBelowIoU: 0.95, scorer: FeatureSumScorer(), retryBelowScore: 1e9)
        let image = texturedImage(width: 260, height: 240)
        var workspace = LandmarkCascade.Workspace(cascade: cascade)
        for box in Self.boxes {
            let detection = cascade.detectionFit(in: image, box: box, workspace: &workspace)
            let fresh = cascade.detectionFit(in: image, box: box)
            #expect(detection.fitted.landmarks == fresh.fitted.landmarks)
            #expect(detection.fitted.features == fresh.fitted.features)
            #expect(detection.fitCount == fresh.fitCount && detection.fitCount > 2)
            // Tracking mode from a start that is not the fit's own result.
            let previous = cascade.initialShape(for: FaceBox(x: box.x + 3, y: box.y - 2, width: box.width * 1.05, height: box.height * 1.05))
            cascade.track(in: image, previous: previous, workspace: &workspace)
            let tracked = cascade.trackWithFeatures(in: image, previous: previous)
            #expect(workspace.shape == tracked.landmarks)
            #expect(workspace.features == tracked.features)
            #expect(cascade.track(in: image, previous: previous) == tracked.landmarks)
            // The public per-stage API (a fresh crop per call, as training uses it) agrees too.
            var stepwise = LandmarkCascade.Workspace(cascade: cascade)
            var shape = cascade.initialShape(trackingFrom: previous)
            let crop = cascade.makeCrop(image: image, around: shape)
            for stage in cascade.stages { stepwise.apply(stage, cascade: cascade, crop: crop, shape: &shape) }
            #expect(shape == tracked.landmarks)
            #expect(stepwise.features == tracked.features)
        }
    }

    /// A deterministic judge that prefers some fits over others (no meaning beyond that).
    struct FeatureSumScorer: FitScorer {
        func fitScore(_ fitted: LandmarkCascade.FittedShape) -> Float {
            var s: Float = 0
            for (i, x) in fitted.features.enumerated() where i % 3 == 0 { s += x }
            return s
        }
    }

    /// A result taken from the workspace keeps its values when the workspace fits again.
    @Test func fittedResultsAreValuesNotViewsOfTheWorkspace() {
        let cascade = randomCascade(stages: 2)
        let image = texturedImage(width: 200, height: 200)
        var workspace = LandmarkCascade.Workspace(cascade: cascade)
        let start = cascade.initialShape(for: FaceBox(x: 50, y: 50, width: 100, height: 100))
        workspace.fit(cascade, image: image, initial: start)
        let kept = workspace.fitted
        let copy = (Array(kept.landmarks), Array(kept.features))
        workspace.fit(cascade, image: image, initial: cascade.initialShape(for: FaceBox(x: 20, y: 30, width: 150, height: 150)))
        #expect(workspace.shape != copy.0)
        #expect(kept.landmarks == copy.0 && kept.features == copy.1)
    }

    /// The tracking start's similarity is fitted to a subset of points without gathering them:
    /// same arithmetic in the same order as fitting the gathered arrays.
    @Test func indexedSimilarityFitEqualsGatheredFit() {
        let cascade = randomCascade(stages: 1)
        let target = cascade.meanShape.enumerated().map { i, p in
            SIMD2<Float>(1.3 * p.x - 0.4 * p.y + 120, 0.4 * p.x + 1.3 * p.y + 95) + SIMD2(Float(i % 7) * 0.3, Float(i % 5) * -0.2)
        }
        let indices = Array(0...4) + Array(12...47)
        let indexed = SimilarityTransform.fit(from: cascade.meanShape, to: target, indices: indices)
        let gathered = SimilarityTransform.fit(from: indices.map { cascade.meanShape[$0] }, to: indices.map { target[$0] })
        #expect(indexed == gathered)
        var into: [SIMD2<Float>] = [SIMD2(1, 2)]
        cascade.initialShape(trackingFrom: target, into: &into)
        #expect(into == cascade.meanShape.map { gathered.apply($0) })
    }
}
