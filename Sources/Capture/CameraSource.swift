import Media

/// A live camera: a `FrameSource` that also reports what the driver set and how capture is going.
/// `V4L2Camera` and `ReconnectingCamera` are the two; callers that record or measure take either.
public protocol CameraSource: FrameSource {
    /// The format, size and rate in effect (for a reconnecting camera: of the current session).
    var format: NegotiatedFormat { get }
    var statistics: CaptureStatistics { get }
    /// Capture cost of the last delivered frame; nil before the first.
    var lastTiming: FrameTiming? { get }
}

extension V4L2Camera: CameraSource {}
extension ReconnectingCamera: CameraSource {}
