/// Which stages `TryOnPipeline.process` runs.
public enum PipelineMode: Sendable, Equatable {
    /// Every stage: decode RGB, track, render the glasses, annotate, encode.
    case tryOn
    /// Only what following a face needs: a JPEG frame is decoded straight to gray (no colour
    /// conversion), then tracked (and analysed by any per-face stages); render, annotate and encode
    /// are skipped, so `PipelineOutput.jpeg` is empty. `lorgnette bench` times this path against the
    /// tracking budget.
    case trackingOnly
}
