import Annotation
import Compositor
import FaceTracking

/// How `FramePipeline` treats each frame. Plain values, so commands build it from their flags.
public struct PipelineConfiguration: Sendable {
    public var camera: CameraChoice = .unknownWebcam
    public var tracker = FaceTrackerConfiguration()
    /// Hide the temples behind the metric head occluder (off: inspection).
    public var occlusion = true
    /// Light the glasses with each face's estimated light, or a fixed neutral studio light.
    public var lighting = LightingMode.estimated
    /// What the annotation stage draws over the try-on.
    public var overlay = OverlayItems()
    /// JPEG quality of the output frames, 1...100.
    public var jpegQuality = 85
    /// The whole try-on, or tracking only (see `PipelineMode`).
    public var mode = PipelineMode.tryOn
    /// Measure the largest face on every frame (PD, temple width, frame size) into
    /// `PipelineOutput.measurement`, also without the metrics overlay (the HTTP preview's panel).
    public var measureFaces = false
    /// Each face's light is measured at most this often (seconds; 0: every frame) and smoothed in
    /// between: see `LightTracker.minimumIntervalSeconds`.
    public var lightIntervalSeconds = 0.1
    /// Encode the try-on as JPEG (`PipelineOutput.jpeg`). Off when only a raw consumer (a virtual
    /// camera taking YUYV) reads the frame: the encode is then the largest stage left.
    public var encodesJPEG = true
    /// Hand the composited frame itself out (`PipelineOutput.image`) for consumers that take pixels
    /// (in the `metrics` mode: the gray frame, `PipelineOutput.gray`).
    public var keepsImage = false
    /// `trackingOnly`: decode in colour anyway, so light is estimated from colour and the overlay can
    /// be drawn on the frame (`track --json/--output`).
    public var decodesColour = false
    /// Replace each face's projected mean-face pupils with the pupils found inside its eyes
    /// (`FacialMetrics.PupilRefiner`), as `track` reports them.
    public var refinesPupils = false

    public init() {}
}
