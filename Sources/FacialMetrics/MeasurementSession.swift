import FaceModel
import FaceTracking
import Geometry
import Imaging

/// What one frame contributed to a measurement session.
public struct FrameResult: Sendable {
    public var eyes: [RefinedEye]
    public var rejections: [FrameGate.Rejection]
    /// Why the card scale failed on this frame (nil when not using the card, or when it was found).
    public var cardFailure: CardDetector.Failure?
    public var card: CardObservation?
    /// Set only for accepted frames.
    public var measurement: FrameMeasurement?
    public var accepted: Bool { measurement != nil }
}

/// Measures one person over frames or photos: per frame refine the pupils, gate, find the scale
/// (iris, card or camera), measure; at the end aggregate robustly (`MeasurementReport`).
///
/// Feed it the unsmoothed face anchor of the one face to measure (the largest). Not thread-safe.
public final class MeasurementSession {
    public let method: ScaleMethod
    public var gate: FrameGate
    public var cardDetector = CardDetector()
    public var measurer: FaceMeasurer
    public private(set) var measurements: [FrameMeasurement] = []
    public private(set) var framesSeen = 0
    public private(set) var framesWithFace = 0
    public private(set) var rejectionCounts: [FrameGate.Rejection: Int] = [:]
    public private(set) var cardNotFound = 0
    public private(set) var cardTilted = 0
    /// Keep only the most recent accepted frames (a rolling live readout); nil keeps all.
    public var window: Int?
    private let refiner = PupilRefiner()

    public init(face: MeanFace, camera: CameraIntrinsics, method: ScaleMethod, gate: FrameGate = FrameGate()) {
        self.method = method
        self.gate = gate
        self.measurer = FaceMeasurer(face: face, camera: camera)
    }

    /// Counts a frame on which no face was found.
    public func noteFrameWithoutFace() { framesSeen += 1 }

    public func process(_ image: GrayImage, landmarks: [SIMD2<Float>], cameraFromFace: RigidTransform) -> FrameResult {
        framesSeen += 1
        framesWithFace += 1
        let eyes = refiner.refine(image, landmarks: landmarks)
        var result = FrameResult(eyes: eyes, rejections: gate.check(cameraFromFace: cameraFromFace, eyes: eyes))
        if !result.rejections.isEmpty {
            for r in result.rejections { rejectionCounts[r, default: 0] += 1 }
            return result
        }
        let scale: MetricScale?
        switch method {
        case .iris: scale = MetricScale.iris(eyes: eyes, camera: measurer.camera)
        case .camera: scale = MetricScale.camera(cameraFromFace: cameraFromFace)
        case .card:
            switch cardDetector.detect(in: image, landmarks: landmarks, cameraFromFace: cameraFromFace, camera: measurer.camera) {
            case .success(let card):
                result.card = card
                scale = MetricScale.card(card, cameraFromFace: cameraFromFace)
            case .failure(let f):
                result.cardFailure = f
                if case .tilted = f { cardTilted += 1 } else { cardNotFound += 1 }
                scale = nil
            }
        }
        guard let scale, let m = measurer.measure(landmarks: landmarks, cameraFromFace: cameraFromFace, eyes: eyes, scale: scale) else {
            return result
        }
        result.measurement = m
        measurements.append(m)
        if let window, measurements.count > window { measurements.removeFirst(measurements.count - window) }
        return result
    }

    /// Aggregates the accepted frames; nil when there are none.
    public func report() -> MeasurementReport? { MeasurementReport(method: method, measurements: measurements) }

    /// Forgets the accepted frames (e.g. a live session starting over).
    public func reset() {
        measurements = []
        framesSeen = 0; framesWithFace = 0; rejectionCounts = [:]; cardNotFound = 0; cardTilted = 0
    }
}
