import Smoothing

/// Tuning of `FaceTracker`. Defaults are what `lorgnette track` uses; the pose filters' (rotation
/// 0.6 Hz, lateral 0.5 Hz, depth 0.2 Hz, beta 2) were chosen on the four dev videos with
/// `Bench/Benchmarks/TrackingBenchmarks/jitter_lag.py` (still-head jitter ≥ 3.3x lower than raw in
/// rotation and translation on every clip, the 20° turn in liveportrait_d3 lags 1 frame).
public struct FaceTrackerConfiguration: Sendable {
    /// Turn off to compare with raw per-frame output (`--no-smoothing`).
    public var smoothing = true
    public var landmarkFilter = OneEuroParameters(minCutoffHz: 1.5, beta: 2.0)
    /// Lateral translation (the direction to the face), speed in face sizes per second.
    public var poseTranslationFilter = OneEuroParameters(minCutoffHz: 0.5, beta: 2.0)
    /// Depth (ln z): the noisiest pose component, smoothed hardest; speed in face sizes per second.
    public var poseDepthFilter = OneEuroParameters(minCutoffHz: 0.2, beta: 2.0)
    public var poseRotationFilter = OneEuroParameters(minCutoffHz: 0.6, beta: 2.0)
    /// The "still a face?" classifier for the landmark model in use (nil: loss by pose confidence).
    /// Ignored when it was trained for another landmark model (see `TrackingConfidenceModel.matches`).
    public var confidenceModel: TrackingConfidenceModel?
    /// With a classifier: a face is lost after this many consecutive frames below its threshold.
    public var lossFrames = 2
    /// Without a classifier: a tracked face whose pose confidence falls below this is lost.
    public var lossConfidence = 0.2
    /// A detection is accepted as a new face only with at least this confidence.
    public var startConfidence = 0.3
    /// Faces tracked at most.
    public var maxFaces = 4
    /// Also run the detector every this many frames while fewer than `maxFaces` are tracked, to pick
    /// up new faces (0: detect only when no face is tracked).
    public var redetectInterval = 0
    /// Two tracks whose landmark boxes overlap more than this (IoU) are the same face; the younger goes.
    public var duplicateIoU: Float = 0.5
    /// Fit every face twice, on the frame and on its mirror, and track the mean (`MirrorAveragedFitter`),
    /// starting from detector boxes averaged with the mirrored frame's (`MirrorAveragedDetection`): a
    /// shape, and so a pose, that mirror the frame's mirror exactly. Twice the fitting cost, a copy of
    /// the whole frame, and a second detection when the detector runs: `measure` turns it on; tracking
    /// for the try-on keeps it off. Read when the tracker is made.
    public var mirrorAveraged = false

    public init() {}
}
