import FaceData
import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Landmarks
import PoseEstimation

/// One trial of the band-coverage test (issue 24 item 2): a person drawn from the population
/// (`SyntheticPerson`), photographed once (`SyntheticShot`), measured by the production path
/// (detector, landmarks, unsmoothed PnP, pupils, gate, scale, one-frame report) with one scale
/// method; did the reported ≈ 95 % band of the far PD contain the person's far PD?
public struct BandCoverageTrial: Sendable {
    public var index: Int
    public var method: ScaleMethod
    public var person: SyntheticPerson
    public var shot: SyntheticShot
    /// The far PD reported and its band (nil when the frame was not measured).
    public var pdFar: MetricSummary?
    /// Why not measured: the gate's reasons, the card's failure, or "no face".
    public var refusal: String?
    public var trackedYawDegrees = Double.nan
    public var trackedPitchDegrees = Double.nan
    /// The fitted iris diameters (pixels, image-left eye first) against the rendered ones (the disc
    /// faces the camera, so f · diameter / depth): a diagnostic of the iris method's bias.
    public var irisPx: [Double] = []
    public var irisTruthPx: [Double] = []
    /// The refined pupils (pixels, image-left eye first) against the projected true pupils (the
    /// rendered iris disc is centred on the ray to the pupil): one photo's pupil-centre error.
    public var pupilPx: [SIMD2<Double>] = []
    public var pupilTruthPx: [SIMD2<Double>] = []
    /// The card's corners as found (pixels, top-left first, clockwise) against the rendered card's
    /// projected corners: a card trial's corner error, and a wrong card told from a wrong pupil.
    public var cardPx: [SIMD2<Double>] = []
    public var cardTruthPx: [SIMD2<Double>] = []
    /// The report's pupil floor in the PD band (1 SD, mm; `MeasurementReport.pupilFloorSD`).
    public var pupilFloorSD = Double.nan

    public var measured: Bool { pdFar != nil }
    public var error: Double? { pdFar.map { $0.value - person.farPD } }
    public var covered: Bool? { pdFar.map { $0.ci95.0 <= person.farPD && person.farPD <= $0.ci95.1 } }
    /// The error in units of the band's claimed SD (half-width / 1.96): ≈ N(0, 1) when the band is right.
    public var standardisedError: Double? {
        guard let s = pdFar, s.plusMinus > 0 else { return nil }
        return (s.value - person.farPD) / (s.plusMinus / 1.96)
    }
}

/// Runs coverage trials: renders each person's shot with the synthetic head, degrades it as a
/// webcam would, compresses it (`compress`, the JPEG round trip: an adapter the caller injects) and
/// measures it. Trial `i` with seed `s` always draws the same person and shot, whichever the method,
/// so methods are compared on the same people. Not thread-safe (one head, one renderer).
public final class BandCoverageRunner {
    public let head: SyntheticHead
    let detector: any FaceDetector
    let landmarkModel: any LandmarkModel
    let compress: (RGBImage, Int) -> RGBImage
    public var width: Int
    public var height: Int
    public var seed: UInt64
    public var gate = FrameGate()
    /// Draw every shot without defocus, motion blur or noise, at JPEG quality 95 (a diagnostic).
    public var sharp = false
    /// The tracker's configuration (smoothing is turned off for each trial's single frame); set its
    /// confidence model to track as `lorgnette measure` does.
    public var trackerConfiguration = FaceTrackerConfiguration()
    /// Landmarks and pupils averaged with the frame's mirror image, as `lorgnette measure` does
    /// (`FaceTrackerConfiguration.mirrorAveraged`, `MeasurementSession.mirrorAveraged`).
    public var mirrorAveraged = true

    public init(head: SyntheticHead, detector: any FaceDetector, landmarkModel: any LandmarkModel, width: Int = 640, height: Int = 480,
                seed: UInt64 = 24, compress: @escaping (RGBImage, Int) -> RGBImage) {
        self.head = head
        self.detector = detector
        self.landmarkModel = landmarkModel
        self.width = width
        self.height = height
        self.seed = seed
        self.compress = compress
    }

    /// The person and shot of trial `index`.
    public func draw(_ index: Int) -> (SyntheticPerson, SyntheticShot) {
        var rng = SplitMix64(seed: seed &* 0x1000_0000_01B3 &+ UInt64(index))
        let person = SyntheticPerson.draw(&rng)
        var shot = SyntheticShot.draw(&rng)
        if sharp {
            shot.degradation = CameraDegradation()
            shot.jpegQuality = 95
        }
        return (person, shot)
    }

    /// The degraded, compressed frame of trial `index` (RGB, as a decoder gives it).
    public func frame(_ index: Int, withCard: Bool) -> RGBImage {
        let (person, shot) = draw(index)
        head.farPD = person.farPD
        head.irisDiameter = person.irisDiameter
        head.faceScale = person.faceScale
        head.cardStandOffDeltaMM = person.cardStandOffDeltaMM
        var rgb = head.render(cameraFromFace: shot.cameraFromFace, camera: shot.camera(width: width, height: height),
                              lighting: shot.lighting, withCard: withCard)
        shot.degradation.apply(to: &rgb)
        return compress(rgb, shot.jpegQuality)
    }

    public func run(_ index: Int, method: ScaleMethod) -> BandCoverageTrial {
        let (person, shot) = draw(index)
        var trial = BandCoverageTrial(index: index, method: method, person: person, shot: shot)
        let image = GrayImage(luma: frame(index, withCard: method == .card))
        let camera = shot.camera(width: width, height: height)
        var config = trackerConfiguration
        config.smoothing = false
        config.mirrorAveraged = mirrorAveraged
        let tracker = FaceTracker(detector: detector, landmarkModel: landmarkModel, poseEstimator: FacePoseEstimator(face: head.face),
                                  camera: camera, configuration: config)
        guard let anchor = tracker.process(image, timestampSeconds: 0).first(where: { $0.state != .lost }) else {
            trial.refusal = "no face"
            return trial
        }
        let session = MeasurementSession(face: head.face, camera: camera, method: method, gate: gate)
        session.mirrorAveraged = mirrorAveraged
        let r = session.process(image, landmarks: anchor.landmarks, cameraFromFace: anchor.cameraFromFace)
        trial.trackedYawDegrees = r.yawDegrees
        trial.trackedPitchDegrees = r.pitchDegrees
        let pose = shot.cameraFromFace
        let truePupils = head.pupils(cameraFromFace: pose).map { pose.apply($0) }
        trial.irisPx = r.eyes.map { $0.irisDiameterPx ?? .nan }
        trial.irisTruthPx = truePupils.map { camera.fx * person.irisDiameter / $0.z }
        trial.pupilPx = r.eyes.map { SIMD2(Double($0.pupil.x), Double($0.pupil.y)) }
        trial.pupilTruthPx = truePupils.map { camera.project($0) }
        if method == .card {
            trial.cardPx = r.card?.corners ?? []
            trial.cardTruthPx = head.cardCorners.map { camera.project(pose.apply($0)) }
        }
        guard r.accepted, let report = session.report() else {
            trial.refusal = (r.rejections.map(\.rawValue) + [r.cardFailure?.description].compactMap { $0 }).joined(separator: "; ")
            return trial
        }
        trial.pdFar = report.pdFar
        trial.pupilFloorSD = report.pupilFloorSD
        return trial
    }
}
