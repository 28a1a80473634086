import Smoothing

/// Tuning of `FaceTracker`. Defaults are what `lorgnette track` uses; the pose filter's (0.7 Hz, beta 2)
/// were chosen on the four dev videos with `Bench/Benchmarks/TrackingBenchmarks/jitter_lag.py`
/// (still-head rotation jitter 2.2–4x lower than raw, the 20° turn in liveportrait_d3 lags 1 frame).
public struct FaceTrackerConfiguration: Sendable {
    /// Turn off to compare with raw per-frame output (`--no-smoothing`).
    public var smoothing = true
    public var landmarkFilter = OneEuroParameters(minCutoffHz: 1.5, beta: 2.0)
    public var poseTranslationFilter = OneEuroParameters(minCutoffHz: 0.7, beta: 2.0)
    public var poseRotationFilter = OneEuroParameters(minCutoffHz: 0.7, beta: 2.0)
    /// A tracked face whose pose confidence falls below this is lost (filters reset, re-detection).
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

    public init() {}
}
