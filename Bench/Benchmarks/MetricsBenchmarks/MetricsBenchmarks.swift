// Per-frame cost of the facial metrics: pupil refinement (coarse iris circle + limbus fit, both
// eyes) plus gate, iris scale and every metric. Bar: ≤ 0.5 ms per frame on one core, and no
// allocation per frame in `MeasurementSession.process` (the mallocs column minus the framework's
// baseline of 16 per run should be 0).
// Run from Bench/: `swift package benchmark --target MetricsBenchmarks`.
// Session 14 (metrics helper, d18 frame 0, 2 shared cores under load): MeasurementSession.process
// p50 234 µs, mallocs p0/p25 16 = the framework's baseline (p50 18: the same +2 shows on the pupils
// and report() benchmarks' upper percentiles, so it is the harness, not the work: identical
// iterations run at 16); report() of 60 frames 5 µs. Was 248 µs and 385 mallocs per frame.
// Session 30 (issue 24 item 6, load from other builds): process 149 µs p50, with the eyeglasses check
// 222 µs (the classifier alone 71 µs), mallocs at the baseline. `import Anchors`: FaceAnchor moved there.
// Session 33 (issue 24, the classifier's fine line segments): classifier alone 117 µs p50, process
// 157 µs without the check and 276 µs with it, mallocs at the baseline (taken with the precondition
// below printed instead: at b976600 it failed, 0 of 80 frames accepted, because d18's frame 0 shows a
// lid opening of 0.49-0.52 of the iris, at the lid gate's 0.5 added in session 30; `measure` rejects
// that frame too, "eyes too narrow". The sessions below now open the lid gate as they open the angle
// gate: the benchmark times an accepted frame's work, not the gate's verdict on this one frame).
import Anchors
import Benchmark
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import JPEGCodec
import Landmarks
import Media
import PoseEstimation

let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A gray frame with its tracked face: the first frame of a dev video when `../shared` is there
/// (640x640, a large face), else the demo portrait at 640x480.
func frame() -> (GrayImage, FaceAnchor, CameraIntrinsics, MeanFace) {
    let face = try! MeanFace(contentsOf: repo.appendingPathComponent("Models/mean-face.json").path)
    let video = repo.deletingLastPathComponent().appendingPathComponent("shared/data/videos/liveportrait_d18.mjpeg").path
    let gray: GrayImage
    if let source = try? MJPEGStreamSource(path: video), let f = try? source.nextFrame(), case .jpeg(let bytes) = f.payload {
        gray = try! TurboJPEGDecoder().decodeGray(bytes)
    } else {
        let photo = try! TurboJPEGDecoder().decodeRGB(try! [UInt8](Data(contentsOf: repo.appendingPathComponent("Models/demo/astronaut.jpg"))))
        let source = DemoSource(photo: photo, focus: DemoSource.astronautFocus, span: DemoSource.astronautSpan, width: 640, height: 480, frameCount: 1)
        guard case .rgb(let rgb) = try! source.nextFrame()!.payload else { fatalError("demo source gives RGB") }
        gray = GrayImage(luma: rgb)
    }
    let camera = CameraIntrinsics.defaultWebcam(width: gray.width, height: gray.height)
    let detector = HOGFaceDetector(model: try! HOGFaceDetectorModel(contentsOfFile: repo.appendingPathComponent("Models/face-detector.fdet").path))
    let cascade = try! LandmarkCascade(contentsOf: repo.appendingPathComponent("Models/landmarks.lmrk").path)
    var config = FaceTrackerConfiguration()
    config.smoothing = false
    let tracker = FaceTracker(detector: detector, landmarkModel: cascade, poseEstimator: FacePoseEstimator(face: face), camera: camera, configuration: config)
    let anchor = tracker.process(gray, timestampSeconds: 0).first!
    return (gray, anchor, camera, face)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 5_000
    )
    let (gray, anchor, camera, face) = frame()
    let refiner = PupilRefiner()
    let measurer = FaceMeasurer(face: face, camera: camera)
    let gate = FrameGate()

    // A session that has seen a few frames already: the steady state (ring buffer full).
    func primedSession(eyeglasses: EyeglassesDetector? = nil, mirrorAveraged: Bool = false) -> MeasurementSession {
        let session = MeasurementSession(face: face, camera: camera, method: .iris)
        session.gate.maxAngleDegrees = 45
        session.gate.minimumIrisVisibleFraction = 0
        session.window = 60
        session.eyeglasses = eyeglasses
        session.mirrorAveraged = mirrorAveraged
        for _ in 0..<80 { _ = session.process(gray, landmarks: anchor.landmarks, cameraFromFace: anchor.cameraFromFace) }
        precondition(session.acceptedCount == 60, "the benchmark frame must pass the gate (else process stops early)")
        return session
    }
    let session = primedSession()

    Benchmark("Pupils: iris circle + limbus fit, both eyes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(refiner.refinePair(gray, landmarks: anchor.landmarks)) }
    }
    Benchmark("Metrics per frame: pupils + gate + iris scale + PD/mono/far/widths") { benchmark in
        for _ in benchmark.scaledIterations {
            let eyes = refiner.refinePair(gray, landmarks: anchor.landmarks)
            blackHole(gate.rejections(cameraFromFace: anchor.cameraFromFace, eyes: eyes))
            if let scale = MetricScale.iris(eyes: eyes, camera: camera) {
                blackHole(measurer.measure(landmarks: anchor.landmarks, cameraFromFace: anchor.cameraFromFace, eyes: eyes, scale: scale))
            }
        }
    }
    Benchmark("MeasurementSession.process (accepted frame, 60-frame ring)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(session.process(gray, landmarks: anchor.landmarks, cameraFromFace: anchor.cameraFromFace))
        }
    }
    // What `measure` runs: the same with the eyeglasses classifier judging every frame (issue 24 item 6).
    let glassesModel = try! EyeglassesModel(contentsOf: repo.appendingPathComponent("Models/eyeglasses.eyeg").path)
    // One detector per session: a detector keeps its session's votes.
    let glasses = EyeglassesDetector(model: glassesModel)
    let judged = primedSession(eyeglasses: glasses)
    Benchmark("MeasurementSession.process with the eyeglasses check (measure's per-frame work)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(judged.process(gray, landmarks: anchor.landmarks, cameraFromFace: anchor.cameraFromFace))
        }
    }
    // What `measure` runs from session 34: the same with the pupils refined on the frame's mirror too
    // (`MeasurementSession.mirrorAveraged`, the mirror-averaged pupils of issue 24 item 5).
    let mirrored = primedSession(eyeglasses: EyeglassesDetector(model: glassesModel), mirrorAveraged: true)
    Benchmark("MeasurementSession.process with the eyeglasses check and mirror-averaged pupils (measure's per-frame work)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(mirrored.process(gray, landmarks: anchor.landmarks, cameraFromFace: anchor.cameraFromFace))
        }
    }
    Benchmark("Eyeglasses classifier (eye-band features + dot product)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(glasses.judge(gray, landmarks: anchor.landmarks)) }
    }
    Benchmark("MeasurementSession.report (60 frames)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(session.report()) }
    }
}
