import Landmarks

/// Everything that decides what `LandmarkTrainer` produces. Same options + same faces = same model.
public struct LandmarkTrainingOptions: Sendable {
    /// Seed of the perturbation generator.
    public var seed: UInt64 = 1
    /// Perturbed initialisations per face (and per mirrored face).
    public var perturbations: Int = 10
    /// Also train on the left/right mirror of every face (with the 68-point index remap).
    public var mirror: Bool = true
    /// Grid stride of each stage in reference units: coarse (large patches) to fine.
    public var strides: [Float] = [3.0, 2.2, 1.6, 1.2, 1.0]
    public var descriptor = DescriptorSpec()
    /// Side of the canonical face box in the reference frame.
    public var referenceSide: Float = 96
    /// Box jitter of the perturbed initialisations, as fractions of the box side (uniform ±).
    public var centreJitter: Float = 0.05
    public var scaleJitter: Float = 0.08
    /// In-plane rotation of the perturbed initialisations about the box centre, degrees (uniform ±;
    /// 0 = upright starts only, as from a detector box).
    public var rotationJitter: Float = 0
    /// How many of each face's perturbations are *wide*: twice the centre and scale jitter and rotated
    /// by up to ±`wideRotation` degrees, so the early stages also learn to pull in the detector's
    /// rare large box errors (its box-to-landmark error distribution is heavy-tailed).
    public var widePerturbations = 0
    public var wideRotation: Float = 15
    /// Weight of the shape features (`LandmarkCascade.shapeFeatureScale`; 0 = descriptors only).
    public var shapeFeatureScale: Float = 0
    /// Ridge strengths tried, as multiples of the Gram matrix's mean diagonal; chosen per stage on a
    /// held-out fold of the *training* faces.
    public var ridgeCandidates: [Float] = [0.01, 0.03, 0.1, 0.3, 1, 3, 10]
    /// Weights of the between-face part of each stage's least-squares fit tried beside 1 (ordinary
    /// ridge), chosen with the ridge on the held-out fold (global stages only). A face's perturbed
    /// samples share its annotation's idiosyncrasies and its appearance, so ordinary least squares
    /// counts each face's unexplained residual once per perturbation; weighting the face means by
    /// γ < 1 (the within-face deviations keep weight 1) is the random-effects GLS estimator, which
    /// trusts what perturbations of the same face teach (how descriptors move when the shape is off)
    /// over what distinguishes the faces (few, and memorisable). Empty or [1] = ordinary ridge.
    public var betweenWeights: [Float] = []
    /// Try each between-face weight at ridge strengths beyond ordinary ridge's choice and its two
    /// neighbours while the ridge-fold error keeps falling at the edge of those tried (off: exactly
    /// the three, as the third round of issue 21 chose them).
    public var betweenRidgeExtend = false
    /// Take the between-face weight offered even when ordinary ridge scores better on the ridge fold.
    public var forceBetweenWeight = false
    /// Fixed ridge strength and between-face weight per stage (the first stages; later ones still
    /// choose): for the shipped model, whose ridge fold is not held out after the first stage (its
    /// samples are moved by maps fitted on them), so choices made there favour too little shrinkage.
    /// Take them from the held-out folds' choices instead.
    public var stageParameters: [(ridge: Float, betweenWeight: Float)]? = nil
    /// Fraction of training faces in the ridge-selection fold.
    public var ridgeFoldPercent = 20
    /// Which slice of `ridgeFoldPercent` is the ridge-selection fold (0 = the first; with 20 %,
    /// 0...4 rotate through the training faces for k-fold cross-validation with `holdOut`).
    public var ridgeFold = 0
    /// Cross-validation: fit every stage on the other faces only, so the fold's faces stay unseen
    /// (evaluate them with `eval landmarks --split fold:K`); the per-stage report gives their NME.
    public var holdOut = false
    /// Cross-fitting (stacking) of the cascade's training residuals: with K > 1, every stage but the
    /// last moves each of K groups of training faces by a map fitted without that group (with the
    /// stage's ridge and between-face weight), so the next
    /// stage trains on residuals as large as an unseen face's, not on the smaller ones of faces the
    /// stage has memorised. The stored maps are still fitted on every face. Only for global stages.
    public var crossFit = 1
    /// How many leading stages cross-fit (the last never does): the coarse stages, where starts are
    /// bad, are where unseen-face residuals differ most from memorised ones.
    public var crossFitStages = Int.max
    /// Pose-partitioned stages (Global SDM): yaw domains per stage (1 = one map for every pose).
    public var yawDomains = 1
    /// First stage (0-based) that is partitioned: the detector's start is the mean shape, whose yaw
    /// says nothing, so the first stage stays global and estimates the pose for the next ones.
    public var yawFromStage = 1
    /// Overlap of the domains' training sets, in standard deviations of the samples' yaw index: a
    /// domain also learns from samples this far beyond its bounds, so a shape near a bound, or
    /// routed to the neighbouring domain by a slightly wrong yaw, still gets a sensible map.
    public var yawOverlap: Float = 0.25
    /// Shrink each domain's map towards the stage's global map instead of towards zero (a
    /// hierarchical ridge), with strengths `yawPriorCandidates` chosen per domain on the ridge fold;
    /// the largest makes the domain's map all but the global one.
    public var yawPrior = false
    public var yawPriorCandidates: [Float] = [0.1, 0.3, 1, 3, 10, 30, 100]
    /// Reduced-rank regression keeps the fewest output directions holding this share of the fitted
    /// increments' energy (smaller, faster stages with no loss of accuracy).
    public var rankEnergy: Float = 0.9995
    /// Upper bound on each stage's rank (run-time cost is about featureCount x rank per stage).
    public var maxRank = 136
    /// Stages on local binary features appended after the SDM stages (none by default).
    public var binary = LocalBinaryOptions()
    /// Worker threads for descriptor extraction (BLAS threading is set separately).
    public var threads = 2

    public init() {}
}
