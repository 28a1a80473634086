import FaceModel
import Foundation
import Geometry
import Imaging

/// What one frame contributed to a measurement session.
public struct FrameResult: Sendable {
    public var eyePair: EyePair
    public var rejectionSet: FrameGate.Rejections
    /// Image-left first (allocates; `eyePair` does not).
    public var eyes: [RefinedEye] { eyePair.array }
    /// In `FrameGate.Rejection.allCases` order (allocates when not empty; `rejectionSet` does not).
    public var rejections: [FrameGate.Rejection] { rejectionSet.isEmpty ? [] : rejectionSet.list }
    /// The head's yaw and pitch against the line of sight (degrees, `FrameGate.viewAngles`).
    public var yawDegrees: Double
    public var pitchDegrees: Double
    /// Why the card scale failed on this frame (nil when not using the card, or when it was found).
    public var cardFailure: CardDetector.Failure?
    public var card: CardObservation?
    /// The eyeglasses classifier's log-odds of glasses on this frame's face (nil: not judged).
    public var eyeglassesScore: Float? = nil
    /// Set only for accepted frames.
    public var measurement: FrameMeasurement?
    public var accepted: Bool { measurement != nil }
}

/// Measures one person over frames or photos: per frame refine the pupils, gate, find the scale
/// (iris, card or camera), measure; at the end aggregate robustly (`MeasurementReport`).
///
/// Feed it the unsmoothed face anchor of the one face to measure (the largest). Not thread-safe.
/// `process` does not allocate in the steady state with the iris or camera scale (scratch buffers
/// built once; with a `window` the accepted frames live in a ring buffer, without one the store
/// grows by doubling).
public final class MeasurementSession {
    public let method: ScaleMethod
    public var gate: FrameGate
    public var cardDetector = CardDetector()
    public var measurer: FaceMeasurer
    public private(set) var framesSeen = 0
    public private(set) var framesWithFace = 0
    public private(set) var cardNotFound = 0
    public private(set) var cardTilted = 0
    /// Keep only the most recent accepted frames (a rolling live readout); nil keeps all.
    public var window: Int? {
        didSet { linearise(keepingLast: window.map { max(0, $0) }) }
    }
    /// Judges every frame with a face for eyeglasses (nil: not checked). Every such frame, not only
    /// accepted ones: lenses that hide or distort the irises make the gate reject the very frames that
    /// would show them, and the warning matters most then.
    public var eyeglasses: EyeglassesDetector?
    /// Refine the pupils on the frame and on its mirror and combine them (`MirrorAveragedPupils`), so
    /// that a mirrored frame measures the same PD with the monocular PDs swapped. Pair it with mirror-
    /// averaged landmarks (`FaceTrackerConfiguration.mirrorAveraged`): `measure` turns both on.
    public var mirrorAveraged = false
    private let refiner = PupilRefiner()
    private let mirrorPupils = MirrorAveragedPupils()
    /// Frames of a video: pupils that cannot be trusted this frame are held in the eye's frame
    /// (`PupilContinuity`); photos reset it (`resetContinuity()`) so one photo never holds another's.
    private var continuity = PupilContinuity()
    /// Accepted frames; with a full `window`, a ring whose oldest entry is at `head`.
    private var stored: [FrameMeasurement] = []
    private var head = 0
    /// Rejection counts by `FrameGate.Rejection.allCases` index.
    private var counts = [Int](repeating: 0, count: FrameGate.Rejection.allCases.count)
    private let aggregation = AggregationScratch()
    /// The mean face's outer + inner eye-corner separation (mm), `FrameMeasurement.eyeCornerSpan`'s reference.
    private let meanFaceCornerSpan: Double

    public init(face: MeanFace, camera: CameraIntrinsics, method: ScaleMethod, gate: FrameGate = FrameGate()) {
        self.method = method
        self.gate = gate
        self.measurer = FaceMeasurer(face: face, camera: camera)
        meanFaceCornerSpan = abs(face.landmarks[45].x - face.landmarks[36].x) + abs(face.landmarks[42].x - face.landmarks[39].x)
        stored.reserveCapacity(256)
    }

    /// How many frames have been accepted (and are kept, with a `window`).
    public var acceptedCount: Int { stored.count }

    /// The accepted frames, oldest first (allocates). With the iris scale they are kept at the PnP
    /// (camera) scale, `method == .camera`, and scaled by the session's iris in `report()`.
    public var measurements: [FrameMeasurement] { (0..<stored.count).map { measurement($0) } }

    /// Accepted frame `i`, oldest first.
    @inline(__always) func measurement(_ i: Int) -> FrameMeasurement { stored[(head + i) % stored.count] }

    /// How many frames each reason rejected (a frame can have several).
    public var rejectionCounts: [FrameGate.Rejection: Int] {
        var out: [FrameGate.Rejection: Int] = [:]
        for (i, r) in FrameGate.Rejection.allCases.enumerated() where counts[i] > 0 { out[r] = counts[i] }
        return out
    }

    /// Counts a frame on which no face was found.
    public func noteFrameWithoutFace() {
        framesSeen += 1
        continuity.reset()
    }

    /// `colour` gives the frame in colour (the size of `image`) if the caller can: it is asked for only
    /// when the card scale looks for the card (a card side can be an edge only in colour, `CardPixels`),
    /// so the other scales and frames the gate refuses never decode colour.
    public func process(_ image: GrayImage, colour: () -> RGBImage? = { nil }, landmarks: [SIMD2<Float>],
                        cameraFromFace: RigidTransform) -> FrameResult {
        framesSeen += 1
        framesWithFace += 1
        let refined = mirrorAveraged ? mirrorPupils.refinePair(image, landmarks: landmarks, refiner: refiner)
                                     : refiner.refinePair(image, landmarks: landmarks)
        let eyes = continuity.apply(refined, landmarks: landmarks)
        let angles = FrameGate.viewAngles(cameraFromFace: cameraFromFace)
        var result = FrameResult(eyePair: eyes, rejectionSet: gate.rejections(cameraFromFace: cameraFromFace, eyes: eyes),
                                 yawDegrees: angles.yaw, pitchDegrees: angles.pitch)
        result.eyeglassesScore = eyeglasses?.judge(image, landmarks: landmarks)
        if !result.rejectionSet.isEmpty {
            let bits = result.rejectionSet.rawValue
            for i in 0..<counts.count where bits & (1 << UInt8(i)) != 0 { counts[i] += 1 }
            return result
        }
        let scale: MetricScale?
        switch method {
        case .iris: scale = MetricScale.iris(eyes: eyes, camera: measurer.camera)
        case .camera: scale = MetricScale.camera(cameraFromFace: cameraFromFace)
        case .card:
            switch cardDetector.detect(in: image, colour: colour(), landmarks: landmarks, cameraFromFace: cameraFromFace, camera: measurer.camera) {
            case .success(let card):
                result.card = card
                scale = MetricScale.card(card, cameraFromFace: cameraFromFace, camera: measurer.camera)
            case .failure(let f):
                result.cardFailure = f
                if case .tilted = f { cardTilted += 1 } else { cardNotFound += 1 }
                scale = nil
            }
        }
        guard let scale, var m = measurer.measure(landmarks: landmarks, cameraFromFace: cameraFromFace, eyes: eyes, scale: scale) else {
            return result
        }
        let pose = Self.poseRelativeSD(yawDegrees: angles.yaw)
        // Not with the card: `CardPlane` turns the card's plane with the face, so a yaw error
        // stretches the card's width and the pupils' separation alike and cancels in their ratio.
        // Measured over 200 synthetic heads (`eval coverage --methods card --tsv`, seeds 24 and 25,
        // session 35): the tracked yaw's error (SD 2.6°) has a regression coefficient of −0.06 and
        // −0.05 on the PD error (with the card's stand-off in the same fit) against the term's 1.
        if method != .card {
            m.scaleRelativeSD = (m.scaleRelativeSD * m.scaleRelativeSD + pose * pose).squareRoot()
        }
        result.measurement = m
        if method == .iris {
            // The iris is a constant of the person: the session keeps the frame at the PnP scale with
            // its iris diameter in those units, and the report scales all frames by one iris estimate
            // (`MeasurementReport`), so the spread over frames is the pupils', not the iris fits'.
            // Each frame's size from its eye corners (the mean face's span), then one iris for all.
            guard var c = measurer.measure(landmarks: landmarks, cameraFromFace: cameraFromFace, eyes: eyes,
                                           scale: .camera(cameraFromFace: cameraFromFace)), c.eyeCornerSpan > 0 else { return result }
            c = c.rescaled(by: meanFaceCornerSpan / c.eyeCornerSpan)
            c.scaleRelativeSD = pose
            store(c)
        } else {
            store(m)
        }
        return result
    }

    /// 1 SD of the PnP yaw against the truth, degrees: the tracker read a rendered head's yaw 0.2–3.0°
    /// low (TurnedHeadTests), and on the dev clips it differs from MediaPipe's by 0.8–3.3° (README).
    public static let yawSDDegrees = 2.5

    /// The relative PD error a yaw error of `yawSDDegrees` causes at this yaw: the pupils are
    /// back-projected onto the face's plane, and a plane turned by θ but taken as θ + δ stretches
    /// the pupils' separation by ≈ tan θ · δ (0.2 % at 5°, 1.2 % at 15°).
    public static func poseRelativeSD(yawDegrees: Double) -> Double {
        abs(tan(yawDegrees * .pi / 180)) * yawSDDegrees * .pi / 180
    }

    private func store(_ m: FrameMeasurement) {
        if let window, window > 0, stored.count >= window {
            stored[head] = m
            head = (head + 1) % stored.count
        } else if window.map({ $0 > 0 }) ?? true {
            stored.append(m)
        }
    }

    /// Puts the accepted frames in chronological order at the start of the store (head 0), keeping
    /// only the last `keepingLast` when given.
    private func linearise(keepingLast limit: Int?) {
        let ordered = measurements
        stored.removeAll(keepingCapacity: true)
        stored.append(contentsOf: ordered.suffix(limit ?? ordered.count))
        head = 0
        if let limit { stored.reserveCapacity(limit) }
    }

    /// Aggregates the accepted frames; nil when there are none.
    public func report() -> MeasurementReport? {
        var report = MeasurementReport(method: method, count: stored.count, scratch: aggregation) { measurement($0) }
        report?.eyeglasses = eyeglasses?.wearsGlasses
        return report
    }

    /// Forgets the pupils held from earlier frames (the next frame is another photo or another person).
    public func resetContinuity() { continuity.reset() }

    /// Forgets the accepted frames (e.g. a live session starting over).
    public func reset() {
        continuity.reset()
        stored.removeAll(keepingCapacity: true); head = 0
        eyeglasses?.reset()
        framesSeen = 0; framesWithFace = 0; cardNotFound = 0; cardTilted = 0
        for i in counts.indices { counts[i] = 0 }
    }
}
