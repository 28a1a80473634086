import Anchors
import FaceTracking
import FacialMetrics
import LightEstimation
import Geometry
import Imaging

/// What the pipeline made of one input frame.
public struct PipelineOutput: Sendable {
    /// Index of the frame in this pipeline run (0-based).
    public var index: Int
    /// Seconds since the first frame of the run, on the source's clock.
    public var time: Double
    /// The source's own capture timestamp (seconds, source clock).
    public var captureTimestamp: Double
    /// Faces that are tracked in this frame (lost ones are left out).
    public var anchors: [FaceAnchor]
    /// The composited, annotated frame as a self-contained JPEG (empty when the configuration does
    /// not encode).
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
    /// The intrinsics used for pose and rendering of this frame.
    public var camera: CameraIntrinsics
    /// Catalogue id or file name of the glasses drawn on this frame.
    public var glassesName: String
    public var timings: StageTimings
    /// The largest face's rolling measurement (iris scale, last 60 accepted frames) when the
    /// configuration measures faces or overlays metrics; nil before enough frames passed the gate.
    public var measurement: MeasurementReport? = nil
    /// Each tracked face's smoothed light estimate (face id and estimate, in anchor order; empty when
    /// lighting is fixed and the light overlay is off). Luminance-only on the tracking-only path.
    public var lights: [LightTracker.FaceLight] = []
    /// The composited, annotated frame itself, when the configuration keeps it (`keepsImage`). It
    /// shares the pipeline's canvas: let it go before the next `process`, or that frame's decode copies it.
    public var image: RGBImage? = nil
    /// The detector ran on this frame (no face was tracked, or a re-detection was due).
    public var detectorRan = false
    /// CPU time of the calling thread in the track stage (without time spent waiting for a CPU).
    public var trackThreadCPUSeconds = 0.0
    /// The `metrics` mode: this frame's gate and measurement of the largest face (nil: no face).
    public var frameResult: FrameResult? = nil
    /// The `metrics` mode with `keepsImage`: the gray frame measured (eye diagnostics).
    public var gray: GrayImage? = nil
}
