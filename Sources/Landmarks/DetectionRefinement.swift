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

    public init(refitBelowIoU: Float = 0.7, scorer: (any FitScorer)? = nil, retryBelowScore: Float = 3,
                retryShifts: [Float] = [-0.15, 0.15], retryScales: [Float] = [0.85, 1.15], retryRounds: Int = 2,
                retryMargin: Float = 0.5) {
        self.refitBelowIoU = refitBelowIoU
        self.scorer = scorer
        self.retryBelowScore = retryBelowScore
        self.retryShifts = retryShifts
        self.retryScales = retryScales
        self.retryRounds = retryRounds
        self.retryMargin = retryMargin
    }

    /// A single fit from the box, as before this refinement existed (the cascade's default).
    public static let none = DetectionRefinement(refitBelowIoU: 0, scorer: nil)

    /// The most fits one detection-mode call can run: two per start.
    public var maximumFits: Int { 2 * (1 + (scorer == nil ? 0 : retryRounds * (retryShifts.count + retryScales.count))) }
}
