import Anchors
import Annotation
import Compositor
import Dispatch
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Landmarks
import LightEstimation
import Media
import PoseEstimation
import Synchronization

/// The one per-frame loop for a stream: frame → decode → luma → track → pupils → light → measure →
/// render the glasses on every face → annotate → encode, the stages its `PipelineMode` needs.
/// `live` and the HTTP preview (try-on), `track` and `bench` (tracking only) and `measure` (metrics)
/// all drive this one type, so what they measure and show is the same code path.
///
/// Buffers (decoded canvas, gray image) are reused across frames. The codecs are injected
/// (`JPEGDecoding`/`JPEGEncoding`), so the pipeline never touches libjpeg itself.
///
/// Threading: `process` must be called from one thread at a time (the capture loop). `selectGlasses`
/// and `glassesName` may be called from any thread (e.g. an HTTP handler); a new choice takes effect
/// at the next frame.
public final class FramePipeline: @unchecked Sendable {
    public let configuration: PipelineConfiguration
    public let face: MeanFace
    let detector: any FaceDetector
    let landmarks: any LandmarkModel
    let decoder: any JPEGDecoding
    let encoder: any JPEGEncoding

    /// Nil for the modes that draw no glasses (`trackingOnly`, `metrics`).
    private var renderer: TryOnRenderer?
    private var glasses: FittedGlasses?
    private let pendingGlasses = Mutex<FittedGlasses?>(nil)
    private let currentName: Mutex<String>
    private var tracker: FaceTracker?
    private var canvas = RGBImage(width: 1, height: 1)
    private var gray = GrayImage(width: 1, height: 1)
    /// This frame's faces that are not lost, and the encoded output: reused frame after frame so the
    /// steady state allocates nothing (callers drop the previous output before the next `process`).
    private var liveAnchors: [FaceAnchor] = []
    /// Per face slot, the refined pupils' storage, reused frame after frame.
    private var refinedPupils: [[SIMD2<Float>]] = []
    private var jpeg: [UInt8] = []
    private var lights: [LightTracker.FaceLight] = []
    private var firstTimestamp: Double?
    private var index = 0
    private var recentIntervals: [Double] = []
    private var lastTick: UInt64 = 0
    /// Per-face light estimation and smoothing (made on first use).
    private var lightTracker: LightTracker?
    /// `--overlay metrics`: a rolling iris-scale measurement of the first face (FacialMetrics); in the
    /// `metrics` mode the caller's session (`measurementSession`).
    private var metricsSession: MeasurementSession?
    /// Pupils found inside the eyes, for `refinesPupils`.
    private let pupilRefiner = PupilRefiner()
    /// Wall seconds of the track stage over the last 30 frames (the tracking-only rate overlay).
    private var recentTrackSeconds: [Double] = []

    /// `glasses` may be nil only for the modes that draw none (`trackingOnly`, `metrics`).
    public init(face: MeanFace, detector: any FaceDetector, landmarks: any LandmarkModel, glasses: FittedGlasses?,
                decoder: any JPEGDecoding, encoder: any JPEGEncoding, configuration: PipelineConfiguration) {
        precondition(glasses != nil || configuration.mode != .tryOn, "the try-on needs glasses")
        self.face = face
        self.detector = detector
        self.landmarks = landmarks
        self.decoder = decoder
        self.encoder = encoder
        self.configuration = configuration
        self.glasses = glasses
        currentName = Mutex(glasses?.name ?? "")
        renderer = glasses.map { Self.makeRenderer($0, occlusion: configuration.occlusion) }
    }

    /// The measurement the `metrics` mode feeds (one session may span several inputs: a pipeline per
    /// photo or recording, the same session). Set before the first `process`.
    public var measurementSession: MeasurementSession? {
        get { metricsSession }
        set { metricsSession = newValue }
    }

    /// The glasses drawn from the next frame on.
    public func selectGlasses(_ glasses: FittedGlasses) {
        pendingGlasses.withLock { $0 = glasses }
        currentName.withLock { $0 = glasses.name }
    }

    /// Name of the glasses being drawn (or about to be, after `selectGlasses`).
    public var glassesName: String { currentName.withLock { $0 } }

    /// The fit of the glasses drawn on the last frame (nil in the modes without glasses).
    public var currentFit: GlassesFit? { glasses?.fit }

    /// The intrinsics in use (nil before the first frame).
    public var camera: CameraIntrinsics? { tracker?.camera }

    /// The field of view found by `estimateCamera(from:)`, used with `CameraChoice.estimated`.
    public private(set) var fieldOfViewEstimate: FieldOfViewEstimate?

    /// With `CameraChoice.estimated`: reads up to `maxFrames` frames of `source` (a second opening of the
    /// recording this pipeline will play, closed by the caller) until `faceFrames` of them show a face,
    /// and estimates the field of view from them (`FieldOfViewScan`); later frames are then posed with it.
    /// Call before the first `process`. Nil (and the webcam default stays) when no face was found.
    public func estimateCamera(from source: FrameSource, faceFrames: Int = 30, maxFrames: Int = 150) throws -> FieldOfViewEstimate? {
        let scan = FieldOfViewScan(detector: detector, landmarkModel: landmarks, face: face, configuration: configuration.tracker, frames: faceFrames)
        fieldOfViewEstimate = try scan.scan(source, decoder: decoder, maxFrames: maxFrames)
        return fieldOfViewEstimate
    }

    /// Frames per second of the whole loop over the last 30 frames (0 before two frames).
    public var recentFramesPerSecond: Double {
        recentIntervals.isEmpty ? 0 : Double(recentIntervals.count) / max(recentIntervals.reduce(0, +), 1e-9)
    }

    /// Runs the mode's stages on `frame`, one call per stage, top to bottom: decode → luma → track →
    /// pupils → light → measure → render → overlay → encode.
    public func process(_ frame: Frame) throws -> PipelineOutput {
        adoptPendingGlasses()
        var timings = StageTimings()
        let t0 = firstTimestamp ?? frame.timestampSeconds
        firstTimestamp = t0
        let time = frame.timestampSeconds - t0
        let mode = configuration.mode
        // Which pixels the frame becomes: colour for the try-on (and for tracking that reports colour
        // light or draws its overlay), else straight to gray.
        let colour = mode == .tryOn || (mode == .trackingOnly && configuration.decodesColour)

        var clock = Self.now()
        let size = try decode(frame, toGray: !colour)
        // Colour tracking (track's report): the pupils may be read anywhere near the new fit, so the
        // whole frame's luma is made here, with the decode.
        let colourTracking = colour && mode == .trackingOnly
        if colourTracking { gray.setLuma(of: canvas) }
        timings.decode = Self.lap(&clock)

        let tracker = try self.tracker(width: size.width, height: size.height)
        let cpu0 = ThreadCPUClock.seconds()
        let runs = tracker.detectorRuns
        track(tracker, grayIsWhole: !colour || colourTracking, timestampSeconds: time)
        let trackCPU = ThreadCPUClock.seconds() - cpu0
        timings.track = Self.lap(&clock)
        noteTrackTime(timings.track)

        if configuration.refinesPupils {
            // Into storage of the pipeline's own, before any copy of `liveAnchors` exists: the tracker
            // still holds the anchors' pupil arrays, so writing into those, or making new ones, would
            // allocate per face and frame (`bench` counted 1 allocation per tracking frame).
            for i in liveAnchors.indices {
                if refinedPupils.count <= i { refinedPupils.append([]) }
                pupilRefiner.pupils(gray, landmarks: liveAnchors[i].landmarks, into: &refinedPupils[i])
                liveAnchors[i].pupils = refinedPupils[i]
            }
            timings.metrics = Self.lap(&clock)
        }
        let anchors = liveAnchors

        lights.removeAll(keepingCapacity: true)
        if mode != .metrics && (configuration.lighting == .estimated || configuration.overlay.light) {
            estimateLight(anchors, camera: tracker.camera, grayOnly: !colour, timestampSeconds: time)
            timings.light = Self.lap(&clock)
        }

        var measured: (report: MeasurementReport?, frame: FrameResult?)?
        if mode == .metrics {
            measured = measureSession(anchors, frame: frame, camera: tracker.camera)
        } else if configuration.measureFaces || (mode == .tryOn && configuration.overlay.metrics) {
            measured = measure(anchors, camera: tracker.camera).map { ($0.report, $0.frame) }
        }
        timings.metrics += Self.lap(&clock)

        jpeg.removeAll(keepingCapacity: true)
        let draws = mode == .tryOn || (mode == .trackingOnly && configuration.decodesColour && configuration.encodesJPEG)
        if draws {
            if mode == .tryOn, let renderer {
                renderer.lightingMode = configuration.lighting
                renderer.render(anchors, lights: lights, intrinsics: tracker.camera, into: &canvas)
                timings.render = Self.lap(&clock)
            }

            annotate(anchors, measured: measured, camera: tracker.camera)
            timings.annotate = Self.lap(&clock)

            if configuration.encodesJPEG { try encoder.encode(canvas, quality: configuration.jpegQuality, into: &jpeg) }
            timings.encode = Self.lap(&clock)
        }

        if lastTick != 0 {
            recentIntervals.append(Double(clock &- lastTick) / 1e9)
            if recentIntervals.count > 30 { recentIntervals.removeFirst() }
        }
        lastTick = clock
        defer { index += 1 }
        return PipelineOutput(index: index, time: time, captureTimestamp: frame.timestampSeconds,
                              anchors: anchors, jpeg: jpeg, width: size.width, height: size.height,
                              camera: tracker.camera, glassesName: glasses?.name ?? "", timings: timings, measurement: measured?.report,
                              lights: lights, image: configuration.keepsImage && mode == .tryOn ? canvas : nil,
                              detectorRan: tracker.detectorRuns > runs, trackThreadCPUSeconds: trackCPU,
                              frameResult: mode == .metrics ? measured?.frame : nil,
                              gray: mode == .metrics && configuration.keepsImage ? gray : nil)
    }

    /// Times the detector has run in this stream.
    public var detectorRuns: Int { tracker?.detectorRuns ?? 0 }

    /// Whether the tracker loses faces by its confidence classifier (else by pose confidence).
    public var usesConfidenceModel: Bool { tracker?.usesConfidenceModel ?? false }

    /// Frames per second of the track stage alone over the last 30 frames (0 before the first).
    public var recentTrackingFramesPerSecond: Double {
        recentTrackSeconds.isEmpty ? 0 : Double(recentTrackSeconds.count) / max(recentTrackSeconds.reduce(0, +), 1e-9)
    }

    // MARK: Stages

    /// A glasses choice made since the last frame (`selectGlasses`) takes effect now.
    private func adoptPendingGlasses() {
        guard let next = pendingGlasses.withLock({ pending -> FittedGlasses? in defer { pending = nil }; return pending }) else { return }
        glasses = next
        renderer = Self.makeRenderer(next, occlusion: configuration.occlusion)
    }

    /// Decode: the frame into `canvas` (RGB), or into `gray` when no stage needs colour. A JPEG goes
    /// straight to gray (no colour conversion); in the `metrics` mode every payload ends in `gray`.
    private func decode(_ frame: Frame, toGray: Bool) throws -> (width: Int, height: Int) {
        switch frame.payload {
        case .jpeg where toGray, _ where configuration.mode == .metrics:
            try PayloadDecoding.luma(of: frame.payload, decoder: decoder, into: &gray)
            return (gray.width, gray.height)
        case .jpeg(let bytes): try decoder.decodeRGB(bytes, scale: .full, into: &canvas)
        case .rgb(let image): canvas = image
        case .gray(let image): canvas = RGBImage(gray: image)
        }
        return (canvas.width, canvas.height)
    }

    /// The stream's tracker, made on the first frame (its camera needs the frame size).
    private func tracker(width: Int, height: Int) throws -> FaceTracker {
        if let tracker { return tracker }
        let choice = configuration.camera == .estimated
            ? fieldOfViewEstimate.map { CameraChoice.horizontalFOV($0.horizontalFOVDegrees) } ?? .unknownWebcam : configuration.camera
        let made = FaceTracker(detector: detector, landmarkModel: landmarks, poseEstimator: FacePoseEstimator(face: face),
                               camera: try choice.intrinsics(width: width, height: height), configuration: configuration.tracker)
        tracker = made
        return made
    }

    /// Luma, then track. The tracker says first what it will read (`TrackingPlan`). With no gray reader
    /// after it (metrics read the eyes in gray), it reads the RGB canvas itself: its crop folds the luma
    /// into the box filter and no gray image is made (at 720p with a large face the conversion cost as
    /// much as the crop). Otherwise only the part it reads is converted. When the detector runs, it
    /// gets the whole frame in gray, completed then in the same buffer (the tracker keeps no reference
    /// to the frame it followed, so nothing is copied).
    /// Follows (and when asked, detects) the faces; the frame's anchors are left in `liveAnchors`.
    private func track(_ tracker: FaceTracker, grayIsWhole whole: Bool, timestampSeconds time: Double) {
        let needsGray = whole || configuration.measureFaces || configuration.overlay.metrics || configuration.refinesPupils
        var grayIsWhole = whole
        if needsGray && !whole {
            let plan = tracker.plan(width: canvas.width, height: canvas.height)
            if let region = plan.readRegion, gray.width == canvas.width, gray.height == canvas.height {
                gray.setLuma(of: canvas, inside: region)
            } else {
                gray.setLuma(of: canvas)
                grayIsWhole = true
            }
        }
        // The frame passed as a temporary, not a local: a reference to the canvas held past this call
        // would make the render's first write copy the whole frame.
        tracker.follow(needsGray ? .gray(gray) : .rgb(canvas), timestampSeconds: time)
        if tracker.wantsDetection {
            if !grayIsWhole { gray.setLuma(of: canvas) }
            tracker.detect(in: gray)
        }
        liveAnchors.removeAll(keepingCapacity: true)
        for a in tracker.finishFrame() where a.state != .lost { liveAnchors.append(a) }
    }

    /// Light: each face's scene light into `lights`, from the colour canvas (tracking only: from the
    /// gray frame, luminance only).
    private func estimateLight(_ anchors: [FaceAnchor], camera: CameraIntrinsics, grayOnly: Bool, timestampSeconds time: Double) {
        if lightTracker == nil {
            lightTracker = LightTracker(estimator: LightEstimator(face: face))
            lightTracker!.minimumIntervalSeconds = configuration.lightIntervalSeconds
        }
        if grayOnly {
            lightTracker!.process(anchors, gray: gray, intrinsics: camera, timestampSeconds: time, into: &lights)
        } else {
            lightTracker!.process(anchors, image: canvas, intrinsics: camera, timestampSeconds: time, into: &lights)
        }
    }

    /// Overlay: the configured items, all drawn by `Annotation`.
    private func annotate(_ anchors: [FaceAnchor], measured: (report: MeasurementReport?, frame: FrameResult?)?, camera: CameraIntrinsics) {
        let items = configuration.overlay
        guard !items.isEmpty else { return }
        FaceAnnotator.draw(anchors, items: items, camera: camera, on: &canvas)
        if items.metrics, let glasses {
            StageAnnotator.drawFitSummary(anchors, frameWidthMM: Double(glasses.fit.regions.frameWidth), on: &canvas)
            if let measured, let frame = measured.frame { StageAnnotator.drawMetrics(measured.report, frame: frame, on: &canvas) }
        }
        if items.light { StageAnnotator.drawLights(anchors, lights, on: &canvas) }
        if items.fps {
            if configuration.mode == .trackingOnly {
                FaceAnnotator.drawRate(recentTrackingFramesPerSecond, label: "fps (tracking)", on: &canvas)
            } else {
                FaceAnnotator.drawRate(recentFramesPerSecond, on: &canvas)
            }
        }
    }

    /// The `metrics` mode: the largest face into the caller's session (timed apart from the track).
    /// The session asks for the frame in colour only when it looks for a card; it is decoded then into
    /// `canvas`, which this mode otherwise leaves unused (so no buffer is made per frame).
    private func measureSession(_ anchors: [FaceAnchor], frame: Frame, camera: CameraIntrinsics) -> (report: MeasurementReport?, frame: FrameResult?)? {
        guard let session = metricsSession else { return nil }
        guard let a = anchors.max(by: { $0.box.width < $1.box.width }) else {
            session.noteFrameWithoutFace()
            return (nil, nil)
        }
        session.measurer.camera = camera
        let colour = { [self] () -> RGBImage? in
            do { try PayloadDecoding.colour(of: frame.payload, decoder: decoder, into: &canvas) } catch { return nil }
            return canvas
        }
        return (nil, session.process(gray, colour: colour, landmarks: a.landmarks, cameraFromFace: a.cameraFromFace))
    }

    private func noteTrackTime(_ seconds: Double) {
        recentTrackSeconds.append(seconds)
        if recentTrackSeconds.count > 30 { recentTrackSeconds.removeFirst() }
    }


    /// The largest face's rolling measurement (iris scale, last 60 accepted frames) and this frame's gate result.
    private func measure(_ anchors: [FaceAnchor], camera: CameraIntrinsics) -> (report: MeasurementReport?, frame: FrameResult)? {
        guard let a = anchors.max(by: { $0.box.width < $1.box.width }) else { return nil }
        if metricsSession == nil {
            metricsSession = MeasurementSession(face: face, camera: camera, method: .iris)
            metricsSession!.window = 60
        }
        let r = metricsSession!.process(gray, landmarks: a.landmarks, cameraFromFace: a.cameraFromFace)
        return (metricsSession!.report(), r)
    }

    private static func makeRenderer(_ glasses: FittedGlasses, occlusion: Bool) -> TryOnRenderer {
        let renderer = TryOnRenderer(fit: glasses.fit)
        renderer.occlusion = occlusion
        return renderer
    }

    @inline(__always) static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Seconds since `clock`, and moves `clock` to now.
    @inline(__always) static func lap(_ clock: inout UInt64) -> Double {
        let t = now()
        defer { clock = t }
        return Double(t &- clock) / 1e9
    }
}
