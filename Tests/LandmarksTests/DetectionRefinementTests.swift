import FaceData
import FaceDetection
import Foundation
import Inputs
import JPEGCodec
import LandmarkTraining
import Landmarks
import Testing

/// Detection mode (`DetectionRefinement`) on held-out faces started from deliberately bad boxes:
/// the refinement must beat the single fit from the same box, and the single fit must stay what
/// `.none` gives (so the comparison cannot pass with the refinement removed).
@Suite struct DetectionRefinementTests {
    /// Validation faces with their canonical box moved down by `dy` sides and scaled by `scale`.
    static func badStarts(limit: Int, dy: Float, scale: Float) throws -> (LandmarkCascade, [(AnnotatedFace, FaceBox)]) {
        let cascade = try LandmarkCascade(contentsOf: SharedData.bundledModel)
        let loaded = try TrainingSet.load(directories: [SharedData.faces], split: .validation, limit: limit, decoder: PhotoDecoder())
        let faces = loaded.faces.map { face -> (AnnotatedFace, FaceBox) in
            let b = FaceBox.canonical(landmarks: face.landmarks)
            let side = b.width * scale, c = b.centre + SIMD2(0, dy * b.width)
            return (face, FaceBox(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side))
        }
        return (cascade, faces)
    }

    static func nme(_ shape: [SIMD2<Float>], _ face: AnnotatedFace) -> Float {
        AlignmentError.meanError(shape, face.landmarks) / AlignmentError.normaliser(face.landmarks)
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func refitFromTheImpliedBoxRepairsOversizedBoxes() throws {
        // Training split, detector boxes x1.4: NME 6.34 % with one fit, 4.38 % refitted (89 % refit).
        // Validation, detector boxes x1.4 (`eval landmarks --box-offset 0,1.4`), between-face model:
        // 6.20 % one fit, 5.04 % refitted (ratio 0.81; previous model 7.15 % and 5.53 %, 0.77). Its
        // better single fit narrows the ratio: on these 16 faces 6.16 % vs 5.47 % (0.89), so 0.9.
        var (cascade, faces) = try Self.badStarts(limit: 16, dy: 0, scale: 1.4)
        var single: Float = 0, refined: Float = 0, refits = 0
        for (face, box) in faces {
            cascade.detectionRefinement = .none
            let one = cascade.landmarks(in: face.image, box: box)
            #expect(one == cascade.fit(image: face.image, initial: cascade.initialShape(for: box)))
            cascade.detectionRefinement = DetectionRefinement(mirror: nil)
            let result = cascade.detectionFit(in: face.image, box: box)
            refits += result.fitCount - 1
            single += Self.nme(one, face)
            refined += Self.nme(result.fitted.landmarks, face)
        }
        single /= Float(faces.count); refined /= Float(faces.count)
        #expect(refits > faces.count / 2, "the implied box should disagree with a box 40 % too large: \(refits) refits")
        #expect(refined < 0.9 * single, "refined NME \(refined) vs single fit \(single)")
    }

    /// A scorer that knows the truth: checks the multi-start mechanics (the best-scoring start wins,
    /// later rounds search around the best fit) independently of the trained classifier.
    struct OracleScorer: FitScorer {
        let truth: [SIMD2<Float>]
        func fitScore(_ fitted: LandmarkCascade.FittedShape) -> Float {
            let e = AlignmentError.meanError(fitted.landmarks, truth) / AlignmentError.normaliser(truth)
            return 10 - 100 * e   // log-odds 3 (the default retry threshold) at 7 % NME
        }
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func extraStartsRescueABoxAThirdOfAFaceOff() throws {
        var (cascade, faces) = try Self.badStarts(limit: 8, dy: 0.35, scale: 1)
        var refitOnly: Float = 0, withStarts: Float = 0
        for (face, box) in faces {
            // Without the mirror: the oracle knows the truth in this image, not in the mirrored one.
            cascade.detectionRefinement = DetectionRefinement(mirror: nil)
            refitOnly += Self.nme(cascade.landmarks(in: face.image, box: box), face)
            cascade.detectionRefinement.scorer = OracleScorer(truth: face.landmarks)
            let result = cascade.detectionFit(in: face.image, box: box)
            #expect(result.fitCount <= cascade.detectionRefinement.maximumFits)
            withStarts += Self.nme(result.fitted.landmarks, face)
        }
        refitOnly /= Float(faces.count); withStarts /= Float(faces.count)
        #expect(withStarts < 0.08, "NME with extra starts \(withStarts)")
        #expect(withStarts < 0.6 * refitOnly, "extra starts \(withStarts) vs refit only \(refitOnly)")
    }

    /// Scores the fit from the original box 0 and every other fit 0.3: a retry that looks only
    /// slightly better, as two on-face fits do under the trained classifier.
    struct SlightlyPrefersRetries: FitScorer {
        let first: [SIMD2<Float>]
        func fitScore(_ fitted: LandmarkCascade.FittedShape) -> Float { fitted.landmarks == first ? 0 : 0.3 }
    }

    @Test func aRetryMustBeatTheFirstFitByTheMargin() {
        var cascade = randomCascade()
        let image = texturedImage(width: 200, height: 180)
        let box = FaceBox(x: 50, y: 40, width: 100, height: 100)
        let first = cascade.fit(image: image, initial: cascade.initialShape(for: box))
        let scorer = SlightlyPrefersRetries(first: first)

        cascade.detectionRefinement = DetectionRefinement(refitBelowIoU: 0, scorer: scorer, retryMargin: 0.5, mirror: nil)
        let kept = cascade.detectionFit(in: image, box: box)
        #expect(kept.fitted.landmarks == first, "a retry 0.3 better must not replace the first fit at margin 0.5")
        #expect(kept.score == 0)
        #expect(kept.fitCount == cascade.detectionRefinement.maximumFits - 1, "every start still runs (the first fit is not refitted)")

        cascade.detectionRefinement.retryMargin = 0
        let switched = cascade.detectionFit(in: image, box: box)
        #expect(switched.fitted.landmarks != first, "without a margin the higher-scoring retry wins")
        #expect(switched.score == 0.3)

        // The default margin is above the 0.3 noise this scorer models.
        cascade.detectionRefinement = DetectionRefinement(refitBelowIoU: 0, scorer: scorer, mirror: nil)
        #expect(cascade.detectionFit(in: image, box: box).fitted.landmarks == first)
    }

    @Test func impliedBoxInvertsTheBoxToShapeMapping() {
        let cascade = randomCascade()
        let box = FaceBox(x: 40, y: 30, width: 120, height: 120)
        let implied = cascade.impliedBox(for: cascade.initialShape(for: box))
        #expect(abs(implied.x - box.x) < 1e-3 && abs(implied.y - box.y) < 1e-3 && abs(implied.width - box.width) < 1e-3)
    }
}
