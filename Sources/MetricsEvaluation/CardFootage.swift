import FaceData
import Anchors
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Landmarks
import PoseEstimation

/// Real footage with a card composited where the tracked face holds it, and the card detector's
/// answer on the result (issue 24 item 3), one frame at a time.
///
/// Per frame: the face is tracked on the original frame (smoothed, as the try-on follows it) and
/// `composite` draws the card in that pose, blurred over the exposure (`shutter` of the frame interval,
/// the motion taken from the last frame's pose), lit as the skin of the nose bridge; sensor noise;
/// the frame is compressed (`encode`, an adapter the caller injects) and decoded again (`decode`; in
/// colour too with `decodeColour`, as `measure --scale card` hands the detector the frame's colour);
/// that frame is tracked again as `lorgnette measure` tracks (unsmoothed) and `CardDetector` runs on it.
/// Not thread-safe.
public final class CardFootage {
    public var composite: CardComposite
    public var shutter = 0.5
    public var noiseSD = 2.0
    public var detector = CardDetector()
    let faceDetector: any FaceDetector
    let landmarkModel: any LandmarkModel
    let face: MeanFace
    let configuration: FaceTrackerConfiguration
    let encode: (RGBImage) -> [UInt8]
    let decode: ([UInt8]) -> GrayImage?
    let decodeColour: (([UInt8]) -> RGBImage?)?
    private var place: FaceTracker?
    private var find: FaceTracker?
    private var previous: RigidTransform?
    private var rng: SplitMix64
    let gradient: SIMD2<Double>

    /// What one frame gave.
    public struct Frame: Sendable {
        /// The compressed composited frame (for a clip to `measure`).
        public var jpeg: [UInt8]
        /// The drawn card's corners (image order), nil when no face was tracked to hold it.
        public var truth: [SIMD2<Double>]?
        /// Whether the drawn card lies fully inside the frame.
        public var visible: Bool
        /// The detector's answer (nil: no face tracked on the composited frame).
        public var detection: Result<CardObservation, CardDetector.Failure>?
        /// Thread CPU seconds of the card detector's `detect` on this frame (with its colour decode,
        /// which `measure` pays only for the card search too); nil when it did not run.
        public var detectorSeconds: Double?
        /// The head's view angles on the composited frame as `measure` tracks it (degrees,
        /// `FrameGate.viewAngles`; nil without a face): whether `measure` would look at this frame.
        public var viewAngles: (yaw: Double, pitch: Double)?
        /// The worst of the four detected corners' distances to the nearest drawn corner (pixels).
        public var cornerError: Double? {
            guard let truth, case .success(let card)? = detection else { return nil }
            return card.corners.map { f in truth.map { (($0 - f) * ($0 - f)).sum().squareRoot() }.min()! }.max()
        }
    }

    public init(composite: CardComposite, faceDetector: any FaceDetector, landmarkModel: any LandmarkModel, face: MeanFace,
                configuration: FaceTrackerConfiguration, seed: UInt64 = 3,
                encode: @escaping (RGBImage) -> [UInt8], decode: @escaping ([UInt8]) -> GrayImage?,
                decodeColour: (([UInt8]) -> RGBImage?)? = nil) {
        self.composite = composite
        self.faceDetector = faceDetector
        self.landmarkModel = landmarkModel
        self.face = face
        self.configuration = configuration
        self.encode = encode
        self.decode = decode
        self.decodeColour = decodeColour
        rng = SplitMix64(seed: seed)
        gradient = SIMD2(rng.uniform(-0.15, 0.15), rng.uniform(-0.1, 0.1))
    }

    private func tracker(_ camera: CameraIntrinsics, smoothed: Bool) -> FaceTracker {
        var config = configuration
        config.smoothing = smoothed
        config.maxFaces = 1
        return FaceTracker(detector: faceDetector, landmarkModel: landmarkModel, poseEstimator: FacePoseEstimator(face: face),
                           camera: camera, configuration: config)
    }

    public func process(_ frame: RGBImage, camera: CameraIntrinsics, timestampSeconds time: Double) -> Frame {
        if place == nil { place = tracker(camera, smoothed: true); find = tracker(camera, smoothed: false) }
        var rgb = frame
        let original = GrayImage(luma: frame)
        var truth: [SIMD2<Double>]?, visible = false
        if let anchor = Self.largest(place!.process(original, timestampSeconds: time)) {
            let pose = composite.cameraFromCard(cameraFromFace: anchor.cameraFromFace)
            composite.draw(into: &rgb, exposure: Self.exposure(from: previous ?? pose, to: pose, shutter: shutter), camera: camera,
                           brightness: Self.brightness(original, landmarks: anchor.landmarks), gradient: gradient)
            previous = pose
            truth = CardComposite.corners(cameraFromCard: pose, camera: camera)
            visible = CardComposite.fullyVisible(cameraFromCard: pose, camera: camera)
        } else {
            previous = nil
        }
        var degradation = CameraDegradation()
        degradation.noiseSD = noiseSD
        degradation.noiseSeed = rng.next()
        degradation.apply(to: &rgb)
        let jpeg = encode(rgb)
        var out = Frame(jpeg: jpeg, truth: truth, visible: visible, detection: nil, viewAngles: nil)
        if let seen = decode(jpeg), let a = Self.largest(find!.process(seen, timestampSeconds: time)) {
            out.viewAngles = FrameGate.viewAngles(cameraFromFace: a.cameraFromFace)
            let t0 = Self.threadSeconds()
            let colour = decodeColour?(jpeg)
            out.detection = detector.detect(in: seen, colour: colour, landmarks: a.landmarks, cameraFromFace: a.cameraFromFace, camera: camera)
            out.detectorSeconds = Self.threadSeconds() - t0
        }
        return out
    }

    /// CPU time of the calling thread (as `Pipeline.ThreadCPUClock`, which this module does not link):
    /// the detector's own cost, not the time it waited for one of the shared cores.
    static func threadSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func largest(_ anchors: [FaceAnchor]) -> FaceAnchor? {
        anchors.filter { $0.state != .lost }.max(by: { $0.box.width < $1.box.width })
    }

    /// The poses over the exposure: `shutter` of the frame interval centred on this frame's pose, the
    /// motion taken as the change since the last frame (7 samples).
    static func exposure(from a: RigidTransform, to b: RigidTransform, shutter: Double) -> [RigidTransform] {
        guard shutter > 0 else { return [b] }
        let dr = (a.rotation.inverse * b.rotation).rotationVector, dt = b.translation - a.translation
        return (0..<7).map { k in
            let s = (Double(k) / 6 - 0.5) * shutter
            return RigidTransform(rotation: b.rotation * Rotation(rotationVector: dr * s), translation: b.translation + dt * s)
        }
    }

    /// The card's brightness from the light on the face: a matte white-ish card reflects about twice
    /// what skin does (skin albedo ≈ 0.45 in linear light), so the card is lit as the skin of the nose
    /// bridge between the inner eye corners is (always skin; the forehead above the brows is hair on
    /// some clips), scaled by 1 / 0.45.
    static func brightness(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> Double {
        let x0 = Int(landmarks[39].x), x1 = Int(landmarks[42].x)
        let y0 = Int(landmarks[27].y), y1 = Int(landmarks[29].y)
        var sum = 0.0, n = 0
        for y in max(0, y0)..<max(0, min(image.height, y1)) {
            for x in max(0, x0)..<max(0, min(image.width, x1)) { sum += SRGB.decode(Double(image[x, y]) / 255); n += 1 }
        }
        guard n > 0 else { return 0.8 }
        return min(1.1, max(0.25, sum / Double(n) / 0.45))
    }
}
