/// How the cascade refines its start when it fits from a detector box ("detection mode"), as opposed
/// to tracking from a previous shape. Detector boxes are sometimes 15-20 % too large or a third of a
/// face off; a single fit from such a box lands on the wrong part of the face.
///
/// 1. *Re-initialisation from the first fit* (as in SDM/ESR/LBF practice): the fitted shape implies a
///    box (`LandmarkCascade.impliedBox(for:)`, the inverse of the learned box-to-shape mapping); when
///    that box overlaps the box the fit started from by less than `refitBelowIoU`, the cascade fits
///    again from the implied box. Always refitting was worse (the implied box is as noisy as a good
///    detector box): on the training split mean NME 3.12 % vs 3.04 %; the gate keeps the good
///    starts and still pulls in boxes that are too large or offset.
/// 2. *Several starts when the fit looks doubtful*: with a `scorer`, a fit scoring below
///    `retryBelowScore` (log-odds) is compared with fits from the box moved by `retryShifts` of its
///    side vertically and scaled by `retryScales` (each always refitted from its implied box); the
///    highest-scoring fit wins, by a margin. While the best still scores below the threshold, another round
///    searches around the box the best fit implies (`retryRounds`). A start replaces the best fit
///    only when it out-scores it by more than `retryMargin`: the classifier's scores of two fits that
///    are both on the face differ by noise, and swapping a good first fit for a slightly
///    higher-scoring retry that sits worse costs accuracy (validation face lfpw_image_0260 went
///    0.042 → 0.091 NME that way without a margin). This is what rescues boxes a
///    third of a face off, where the first fit is not on the face at all: on the training split with
///    every detector box moved 30 % up, failures (NME > 0.08, misses included) 98.9 % with one fit,
///    6.7 % with one round, 4.4 % with two (2.8 % with the boxes as detected).
///
/// 3. *The mirrored fit* (`mirror`, on by default for the 68-point markup): the whole of 1-2 runs
///    again on the face's mirror image (`MirroredRegion`: only the square around the box is flipped,
///    never the photo), the points are mapped back with `IBUG68.mirror`, and each point is the mean of
///    its two fits. The cascade is trained on mirrored faces too, so the two fits are estimates of
///    the same points whose errors are partly independent (test-time augmentation). Validation (206
///    faces, detector boxes; no fitted parameter): inter-ocular NME 3.82 → 3.77 %, paired −0.049 ±
///    0.022 points (better on 127 of 205 faces), inter-pupil −0.069 ± 0.032, failures > 0.08 3 → 3,
///    > 0.10 2 → 1; training split −0.026 ± 0.003 (8 standard errors, 1,071 of 1,761 better). Taking
///    the higher-scoring fit instead of the mean where the two disagree by more than 3-10 % of the
///    inter-ocular distance (`meanWhereAgreeing`) was no better on the training split (−0.027 to
///    −0.029). It doubles the cost: 3.82 fits per face instead of 1.85, 2.0-2.4x the thread CPU.
///
/// A *consensus of the starts* (`consensus`: the per-point median or score-weighted mean of the
/// starts that converged within 5-10 % of the inter-ocular distance of the best) was measured and
/// is off: on the training split it moved only the ~50 faces with extra starts, +0.003 to +0.006
/// points; with extra starts for every face (`retryBelowScore` = ∞, 17 fits per face) +0.03 to
/// +0.04 points (worse on 58 % of faces): the starts from moved boxes converge a little off, and the
/// first fit from the detector's box is the best single estimate (Models/README.md, fifth round).
///
/// `retryMargin` was chosen on the training split (1,806 faces, 45 detector misses counted as
/// failures; failures = NME > 0.08; boxes as detected, moved 30 % up / down, scaled 1.2):
///
/// | margin | as detected | up 0.3 | down 0.3 | x1.2 | sum | mean NME as detected |
/// |---|---:|---:|---:|---:|---:|---:|
/// | 0    | 51 | 80 | 81 | 57 | 269 | 3.03 % |
/// | 0.25 | 50 | 82 | 79 | 56 | 267 | 3.03 % |
/// | **0.5** | **50** | **83** | **77** | **55** | **265** | 3.03 % |
/// | 1    | 50 | 86 | 76 | 56 | 268 | 3.03 % |
/// | 2    | 52 | 90 | 83 | 56 | 281 | 3.04 % |
/// | 3    | 51 | 98 | 88 | 58 | 295 | 3.04 % |
///
/// 0.5 has the fewest failures as detected (tied) and in sum; the up-shifted rescue loses 3 faces
/// of 1,806 against no margin, large margins lose it fast (the retry must displace an off-face
/// first fit). The differences are a handful of faces: the margin is a small correction. Validation,
/// run once after choosing (206 faces): NME 3.94 → 3.97 %, failures 7 → 6 (> 0.10: 2 → 3).
///
/// Defaults were chosen on the *training* split (detector boxes, and the same boxes moved 30 % up or
/// down, scaled 1.2; `lorgnette eval landmarks --split training --box-offset DY,S`), never on the
/// validation split. Cost: one fit for most faces, up to `maximumFits` for a doubtful one
/// (validation: 2.00 fits per face on average, 18 of 206 faces more than one); detection mode runs
/// only when a face is (re)acquired, tracking mode stays one fit.
public struct DetectionRefinement: Sendable {
    /// Refit from the implied box when its IoU with the starting box is below this (0 = never refit).
    public var refitBelowIoU: Float
    /// The fit judge; without one only step 1 runs.
    public var scorer: (any FitScorer)?
    /// A fit scoring below this (log-odds of a face) triggers the extra starts.
    public var retryBelowScore: Float
    /// Vertical offsets of the extra starts, in box sides (positive = down).
    public var retryShifts: [Float]
    /// Scales of the extra starts about the box centre.
    public var retryScales: [Float]
    /// Rounds of extra starts while the best fit still scores below `retryBelowScore`; round k > 1
    /// centres its starts on the box the best fit so far implies.
    public var retryRounds: Int
    /// Log-odds an extra start's fit must out-score the current best by before it replaces it.
    public var retryMargin: Float

    /// How the starts' fits make the result: the best alone, or a consensus of those near it.
    public var consensus: StartConsensus
    /// Also fit the face's mirror image and combine the two fits (nil: the direct fit alone).
    public var mirror: MirrorCombination?

    public init(refitBelowIoU: Float = 0.7, scorer: (any FitScorer)? = nil, retryBelowScore: Float = 3,
                retryShifts: [Float] = [-0.15, 0.15], retryScales: [Float] = [0.85, 1.15], retryRounds: Int = 2,
                retryMargin: Float = 0.5, consensus: StartConsensus = .best, mirror: MirrorCombination? = .mean) {
        self.refitBelowIoU = refitBelowIoU
        self.scorer = scorer
        self.retryBelowScore = retryBelowScore
        self.retryShifts = retryShifts
        self.retryScales = retryScales
        self.retryRounds = retryRounds
        self.retryMargin = retryMargin
        self.consensus = consensus
        self.mirror = mirror
    }

    /// What the several starts' fits give. `within` is a mean point distance in inter-ocular
    /// distances (outer eye corners; the canonical box side for other markups): a start's fit whose
    /// points lie that close to the best fit's counts as converged to the same face.
    public enum StartConsensus: Sendable, Equatable {
        /// The best-scoring fit (by `retryMargin`) alone.
        case best
        /// Per point and axis, the median of the converged fits (the best included).
        case median(within: Float)
        /// The converged fits averaged with weights `exp(score − best score)`.
        case weightedMean(within: Float)
    }

    /// How the fit of the mirrored face (iBUG 68 points only; mapped back with `IBUG68.mirror`)
    /// joins the direct fit. The result's features and score stay the direct fit's, unless the
    /// mirrored fit is taken whole.
    public enum MirrorCombination: Sendable, Equatable {
        /// Every point the mean of its two fits.
        case mean
        /// The mean when the two fits' mean point distance is at most `within` inter-ocular
        /// distances, else the higher-scoring fit whole (the direct one without a scorer).
        case meanWhereAgreeing(within: Float)
    }

    /// A single fit from the box, as before this refinement existed (the cascade's default).
    public static let none = DetectionRefinement(refitBelowIoU: 0, scorer: nil, mirror: nil)

    /// The most fits one detection-mode call can run: two per start, twice with the mirror.
    public var maximumFits: Int { (mirror == nil ? 1 : 2) * 2 * (1 + (scorer == nil ? 0 : retryRounds * (retryShifts.count + retryScales.count))) }
}
