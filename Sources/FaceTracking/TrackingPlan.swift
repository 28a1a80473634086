import Imaging

/// What `FaceTracker` needs of the next frame, asked before the frame is prepared
/// (`FaceTracker.plan(width:height:)`), so the pipeline converts to gray exactly those pixels.
public struct TrackingPlan: Sendable, Equatable {
    /// The pixels the tracked faces are read from; nil: the whole frame.
    public var readRegion: PixelRect?
    /// The detector runs on this frame: it needs the whole frame in gray.
    public var detects: Bool

    public init(readRegion: PixelRect?, detects: Bool) {
        self.readRegion = readRegion
        self.detects = detects
    }
}
