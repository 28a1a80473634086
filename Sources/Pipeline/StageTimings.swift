/// Wall time spent in each pipeline stage for one frame, in seconds (monotonic clock). Stages that
/// did not run for a frame read 0.
public struct StageTimings: Sendable, Equatable {
    public var decode = 0.0
    public var track = 0.0
    /// Light estimation (skin samples → spherical harmonics), 0 with `--light fixed` and no light overlay.
    public var light = 0.0
    /// Pupil refinement, gate and per-frame facial metrics of the largest face (when measuring).
    public var metrics = 0.0
    public var render = 0.0
    public var annotate = 0.0
    public var encode = 0.0

    public init() {}

    public var total: Double { decode + track + light + metrics + render + annotate + encode }

    /// (name, seconds) in pipeline order, for reports.
    public var stages: [(name: String, seconds: Double)] {
        [("decode", decode), ("track", track), ("light", light), ("metrics", metrics), ("render", render), ("annotate", annotate), ("encode", encode)]
    }
}
