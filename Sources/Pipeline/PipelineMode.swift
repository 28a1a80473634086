/// Which stages `FramePipeline.process` runs.
public enum PipelineMode: Sendable, Equatable {
    /// Every stage: decode RGB, track, light, render the glasses, annotate, encode (`live`).
    case tryOn
    /// Only what following a face needs: a JPEG frame is decoded straight to gray (no colour
    /// conversion), then tracked (and analysed by any per-face stages); no glasses are drawn.
    /// `lorgnette bench` times this path against the tracking budget. With
    /// `PipelineConfiguration.decodesColour` (`track`) the frame is decoded in colour, the light is
    /// measured from colour, and the overlay is drawn and encoded when `encodesJPEG`.
    case trackingOnly
    /// Measurement (`measure`): gray frames, the largest face measured into the caller's
    /// `MeasurementSession` (`FramePipeline.measurementSession`); nothing drawn.
    case metrics
}
