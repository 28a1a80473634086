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

/// The try-on pipeline for one stream: frame → decode → track → render the glasses on every face →
/// annotate → encode. `live`, `bench` and the HTTP preview all drive this one type, so what they
/// measure and show is the same code path.
///
/// Buffers (decoded canvas, gray image) are reused across frames. The codecs are injected
/// (`JPEGDecoding`/`JPEGEncoding`), so the pipeline never touches libjpeg itself.
///
/// Threading: `process` must be called from one thread at a time (the capture loop). `selectGlasses`
/// and `glassesName` may be called from any thread (e.g. an HTTP handler); a new choice takes effect
/// at the next frame.
public final class TryOnPipeline: @unchecked Sendable {
    public let configuration: PipelineConfiguration
    public let face: MeanFace
    let detector: any FaceDetector
    let landmarks: any LandmarkModel
    let decoder: any JPEGDecoding
    let encoder: any JPEGEncoding

    private var renderer: TryOnRenderer
    private var glasses: FittedGlasses
    private let pendingGlasses = Mutex<FittedGlasses?>(nil)
    private let currentName: Mutex<String>
    private var tracker: FaceTracker?
    private var canvas = RGBImage(width: 1, height: 1)
    private var gray = GrayImage(width: 1, height: 1)
    /// The whole frame in gray, made only when the detector must run on a frame of which `gray` holds
    /// just the tracked faces' part; then the two swap. A second buffer, so filling it never copies the
    /// image the tracker is reading.
    private var wholeGray = GrayImage(width: 1, height: 1)
    /// This frame's faces that are not lost, and the encoded output: reused frame after frame so the
    /// steady state allocates nothing (callers drop the previous output before the next `process`).
    private var liveAnchors: [FaceAnchor] = []
    private var jpeg: [UInt8] = []
    private var lights: [LightTracker.FaceLight] = []
    private var firstTimestamp: Double?
    private var index = 0
    private var recentIntervals: [Double] = []
    private var lastTick: UInt64 = 0
    /// Per-face light estimation and smoothing (made on first use).
    private var lightTracker: LightTracker?
    /// `--overlay metrics`: a rolling iris-scale measurement of the first face (FacialMetrics).
    private var metricsSession: MeasurementSession?

    public init(face: MeanFace, detector: any FaceDetector, landmarks: any LandmarkModel, glasses: FittedGlasses,
                decoder: any JPEGDecoding, encoder: any JPEGEncoding, configuration: PipelineConfiguration) {
        self.face = face
        self.detector = detector
        self.landmarks = landmarks
        self.decoder = decoder
        self.encoder = encoder
        self.configuration = configuration
        self.glasses = glasses
        currentName = Mutex(glasses.name)
        renderer = Self.makeRenderer(glasses, occlusion: configuration.occlusion)
    }

    /// The glasses drawn from the next frame on.
    public func selectGlasses(_ glasses: FittedGlasses) {
        pendingGlasses.withLock { $0 = glasses }
        currentName.withLock { $0 = glasses.name }
    }

    /// Name of the glasses being drawn (or about to be, after `selectGlasses`).
    public var glassesName: String { currentName.withLock { $0 } }

    /// The fit of the glasses drawn on the last frame.
    public var currentFit: GlassesFit { glasses.fit }

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

    /// Runs every stage on `frame` and returns the encoded result.
    public func process(_ frame: Frame) throws -> PipelineOutput {
        if let next = pendingGlasses.withLock({ pending -> FittedGlasses? in defer { pending = nil }; return pending }) {
            glasses = next
            renderer = Self.makeRenderer(next, occlusion: configuration.occlusion)
        }
        var timings = StageTimings()
        let t0 = firstTimestamp ?? frame.timestampSeconds
        firstTimestamp = t0

        let trackingOnly = configuration.mode == .trackingOnly
        var clock = Self.now()
        var grayDecoded = false
        switch frame.payload {
        case .jpeg(let bytes) where trackingOnly:
            try decoder.decodeGray(bytes, scale: .full, into: &gray)
            grayDecoded = true
        case .jpeg(let bytes): try decoder.decodeRGB(bytes, scale: .full, into: &canvas)
        case .rgb(let image): canvas = image
        case .gray(let image): canvas = RGBImage(gray: image)
        }
        timings.decode = Self.lap(&clock)

        let width = grayDecoded ? gray.width : canvas.width, height = grayDecoded ? gray.height : canvas.height
        // The tracker reads only around the faces it follows. With no gray consumer after it (metrics read
        // the eyes in gray), it reads the RGB canvas itself: its crop folds the luma into the box filter,
        // and no gray image is made (at 720p with a large face the conversion cost as much as the crop).
        // Otherwise only the part it reads is converted. The whole frame is converted when the detector
        // runs (see `wholeGray`).
        let needsGray = configuration.measureFaces || configuration.overlay.metrics
        var partialGray = false
        if !grayDecoded && needsGray {
            if let tracker, gray.width == canvas.width, gray.height == canvas.height,
               let region = tracker.nextFrameReadRegion(width: canvas.width, height: canvas.height) {
                gray.setLuma(of: canvas, inside: region)
                partialGray = true
            } else {
                gray.setLuma(of: canvas)
            }
        }
        if tracker == nil {
            let choice = configuration.camera == .estimated ? fieldOfViewEstimate.map { CameraChoice.horizontalFOV($0.horizontalFOVDegrees) } ?? .unknownWebcam : configuration.camera
            tracker = FaceTracker(detector: detector, landmarkModel: landmarks, poseEstimator: FacePoseEstimator(face: face),
                                  camera: choice.intrinsics(width: width, height: height),
                                  configuration: configuration.tracker)
        }
        let tracker = tracker!
        var wholeGrayUsed = false
        let tracksGray = grayDecoded || needsGray
        // The frame passed as a temporary, not a local: a reference to the canvas held past this call
        // would make the render's first write copy the whole frame.
        let all = tracker.process(tracksGray ? .gray(gray) : .rgb(canvas), timestampSeconds: frame.timestampSeconds - t0) {
            // Only a whole gray frame can go to the detector as it is.
            guard partialGray || !tracksGray else { return nil }
            self.wholeGray.setLuma(of: self.canvas)
            wholeGrayUsed = true
            return self.wholeGray
        }
        // Later stages (metrics) and the next frame's partial conversion start from the whole frame.
        if wholeGrayUsed { swap(&gray, &wholeGray) }
        liveAnchors.removeAll(keepingCapacity: true)
        for a in all where a.state != .lost { liveAnchors.append(a) }
        let anchors = liveAnchors
        timings.track = Self.lap(&clock)

        // Tracking only, the light is estimated on the gray frame (luminance only); the try-on reads colour.
        lights.removeAll(keepingCapacity: true)
        if configuration.lighting == .estimated || configuration.overlay.light {
            if lightTracker == nil {
                lightTracker = LightTracker(estimator: LightEstimator(face: face))
                lightTracker!.minimumIntervalSeconds = configuration.lightIntervalSeconds
            }
            let time = frame.timestampSeconds - t0
            if trackingOnly {
                lightTracker!.process(anchors, gray: gray, intrinsics: tracker.camera, timestampSeconds: time, into: &lights)
            } else {
                lightTracker!.process(anchors, image: canvas, intrinsics: tracker.camera, timestampSeconds: time, into: &lights)
            }
            timings.light = Self.lap(&clock)
        }

        let measured = configuration.measureFaces || (!trackingOnly && configuration.overlay.metrics)
            ? measure(anchors, camera: tracker.camera) : nil
        timings.metrics = Self.lap(&clock)

        jpeg.removeAll(keepingCapacity: true)
        if !trackingOnly {
            renderer.lightingMode = configuration.lighting
            renderer.render(anchors, lights: lights, intrinsics: tracker.camera, into: &canvas)
            timings.render = Self.lap(&clock)

            if !configuration.overlay.isEmpty {
                FaceAnnotator.draw(anchors, items: configuration.overlay, camera: tracker.camera, on: &canvas)
                if configuration.overlay.metrics { drawFitSummary(anchors); drawMetrics(measured) }
                if configuration.overlay.light { drawLights(anchors, lights) }
                if configuration.overlay.fps { FaceAnnotator.drawRate(recentFramesPerSecond, on: &canvas) }
            }
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
        return PipelineOutput(index: index, time: frame.timestampSeconds - t0, captureTimestamp: frame.timestampSeconds,
                              anchors: anchors, jpeg: jpeg, width: width, height: height,
                              camera: tracker.camera, glassesName: glasses.name, timings: timings, measurement: measured?.report,
                              lights: lights, image: configuration.keepsImage && !trackingOnly ? canvas : nil)
    }

    /// Per face: the light gizmo (direction, colour temperature, intensities) beside the face box.
    private func drawLights(_ anchors: [FaceAnchor], _ lights: [LightTracker.FaceLight]) {
        for a in anchors {
            guard let e = lights.first(where: { $0.faceID == a.id })?.estimate else { continue }
            let x = Int(a.box.x + a.box.width) + 30, y = Int(a.box.y) + 30
            LightGizmo.draw(e, centreX: max(30, min(x, canvas.width - 120)), centreY: max(30, min(y, canvas.height - 50)), on: &canvas)
        }
    }

    /// Per face: id, head angles, distance and the fitted frame's width, under the face box.
    private func drawFitSummary(_ anchors: [FaceAnchor]) {
        for a in anchors {
            let r = a.rotationDegrees
            let x = Int(a.box.x), y = Int(a.box.y + a.box.height) + 4
            canvas.drawText(String(format: "#%d pitch %.0f yaw %.0f roll %.0f  %.0f mm  frame %.0f mm",
                                   a.id, r.x, r.y, r.z, a.translationMM.z, glasses.fit.regions.frameWidth),
                            atX: max(0, min(x, canvas.width - 8)), y: max(0, min(y, canvas.height - 10)), color: .white)
        }
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

    /// PD and temple width (iris scale, last 60 accepted frames, ± ≈ 95 %) of the largest face, top left.
    private func drawMetrics(_ measured: (report: MeasurementReport?, frame: FrameResult)?) {
        guard let (report, r) = measured else { return }
        let text: String
        if let m = report {
            text = String(format: "PD %.1f +/- %.1f mm (far %.1f)  temple %.0f +/- %.0f mm  n=%d", m.pd.value, m.pd.plusMinus,
                          m.pdFar.value, m.templeWidth.value, m.templeWidth.plusMinus, m.framesUsed)
                + (r.accepted ? "" : "  (" + (r.rejectionSet.first?.rawValue ?? "") + ")")
        } else {
            text = "PD: " + (r.rejectionSet.first?.rawValue ?? "measuring")
        }
        canvas.drawText(text, atX: 8, y: 8, color: .white)
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
