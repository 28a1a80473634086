import Anchors
import Foundation
import FaceDetection
import FaceModel
import Geometry
import Imaging
import Landmarks
import PoseEstimation
import Smoothing

/// The per-frame tracking loop that turns images into `FaceAnchor`s.
///
/// Each frame: every tracked face is re-fitted by the landmark regressor in tracking mode (started
/// from its previous shape) and its pose solved from the previous pose. Loss: with a
/// `TrackingConfidenceModel` (configuration) and a `LandmarkCascade`, a face is dropped (state
/// `lost`, filters reset) when the classifier's face probability on the cascade's own descriptors
/// stays below the model's threshold for `lossFrames` consecutive frames — a shape that slid onto
/// the mouth or the background no longer looks like a face, whatever its rigid fit says; expressions
/// (a yawn) that the rigid mean face cannot explain no longer count as loss. Without a classifier the
/// rigid fit's reprojection error is the signal (`lossConfidence` on the pose confidence). The
/// detector runs only when nothing is tracked (or every `redetectInterval` frames while there is
/// room for more faces); its boxes that do not overlap a tracked face start new tracks with new ids,
/// and only when the fit from the box passes the classifier (or the pose confidence test).
///
/// Timestamps (seconds) drive the filters. Not thread-safe: one tracker per video stream.
///
/// Allocation: with a `LandmarkCascade` as the landmark model, a face tracked frame after frame costs
/// no heap allocation in the tracker (landmarks fitted by the cascade's fitter in one reused workspace,
/// anchors rewritten in place). Anchors and the returned array alternate between two sets of storage
/// (even and odd frames), so a caller may keep the previous frame's result while it asks for the
/// next; anything kept longer is simply copied on write once. Detection frames allocate.
public final class FaceTracker {
    public let detector: any FaceDetector
    public let landmarkModel: any LandmarkModel
    public var poseEstimator: FacePoseEstimator
    public var camera: CameraIntrinsics
    public var configuration: FaceTrackerConfiguration

    struct Track {
        var id: Int
        var rawLandmarks: [SIMD2<Float>]
        var rawPose: RigidTransform
        var landmarkFilter: LandmarkFilter
        var poseFilter: PoseFilter
        var age = 0
        /// Consecutive frames the classifier doubted this face.
        var doubtful = 0
        var faceProbability: Double?
        var widthScale: Double?
        var widthTime: Double?
        /// The anchors reported for this face on the last even and odd frames: their arrays are
        /// rewritten in place two frames later.
        var anchors: (even: FaceAnchor?, odd: FaceAnchor?) = (nil, nil)
        /// Set while `process` runs: lost this frame, or a duplicate of an older track.
        var dropped = false
    }

    private var tracks: [Track] = []
    /// The arrays `process` returned on the last even and odd frames, kept so their storage is reused.
    private var outputs: (even: [FaceAnchor], odd: [FaceAnchor]) = ([], [])
    /// The frame being processed: its anchors so far and its time (between `follow` and `finishFrame`).
    private var current: [FaceAnchor] = []
    private var currentTime = 0.0
    private var nextID = 0
    private var frameIndex = 0
    /// Frames on which the detector ran (for statistics).
    public private(set) var detectorRuns = 0
    /// The landmark model's fitter for this stream, judged by the classifier when it fits the model.
    private let fitter: any LandmarkFitter
    /// `configuration.mirrorAveraged` when the tracker was made (the fitter was chosen by it).
    private let mirrorAveraged: Bool
    /// With `mirrorAveraged`: the detector's boxes averaged with its boxes on the mirrored frame.
    private var mirrorDetection = MirrorAveragedDetection()
    /// The classifier when the configuration's confidence model fits the landmark model.
    private let classifier: TrackingConfidenceModel?

    public init(detector: any FaceDetector, landmarkModel: any LandmarkModel, poseEstimator: FacePoseEstimator,
                camera: CameraIntrinsics, configuration: FaceTrackerConfiguration = FaceTrackerConfiguration()) {
        self.detector = detector
        self.landmarkModel = landmarkModel
        self.poseEstimator = poseEstimator
        self.camera = camera
        self.configuration = configuration
        let plain = landmarkModel.makeFitter(judge: configuration.confidenceModel)
        mirrorAveraged = configuration.mirrorAveraged
        fitter = mirrorAveraged ? MirrorAveragedFitter(plain) : plain
        classifier = fitter.isJudged ? configuration.confidenceModel : nil
    }

    /// Whether loss is decided by the tracking-confidence classifier (a model was configured and it
    /// was trained for this landmark model) rather than by the pose fit.
    public var usesConfidenceModel: Bool { classifier != nil }

    /// Landmarks from tracking or from a box, with the classifier's face probability when there is one.
    /// Detection fits need a gray image; tracking fits read `image` as it is (see `LumaFrame`).
    private func fit(_ image: LumaFrame, previous: [SIMD2<Float>]?, box: FaceBox?) -> (shape: [SIMD2<Float>], probability: Double?) {
        let fitted = previous.map { fitter.track(in: image, previous: $0) } ?? fitter.fit(in: image.grayImage, box: box!)
        return (fitted.shape, fitted.score.map { Double(TrackingConfidenceModel.probability(score: $0)) })
    }

    public var trackedFaceCount: Int { tracks.count }

    /// Forgets every face (e.g. after a seek).
    public func reset() { tracks = [] }

    /// Processes one frame: `follow`, then `detect` on the frame when the tracker asks for it, then
    /// `finishFrame`. Returns one anchor per tracked or newly detected face, plus one `lost` anchor for
    /// each face lost on this frame (carrying its last pose). The detector gets `frame` as gray (an RGB
    /// frame is converted, allocating, whenever it runs): callers that prepare only part of a frame
    /// (`plan(width:height:)`) run the three steps themselves.
    public func process(_ frame: LumaFrame, timestampSeconds time: Double) -> [FaceAnchor] {
        follow(frame, timestampSeconds: time)
        if wantsDetection { detect(in: frame.grayImage) }
        return finishFrame()
    }

    /// `process` on a gray frame.
    public func process(_ image: GrayImage, timestampSeconds time: Double) -> [FaceAnchor] {
        process(.gray(image), timestampSeconds: time)
    }

    // MARK: One frame in three steps

    /// What the next frame must hold, asked before it is prepared: the part the tracked faces are read
    /// from (nil: the whole frame), and whether the detector is due anyway. The detector can also
    /// become due during `follow`, when every tracked face is lost: `wantsDetection` says so then.
    public func plan(width: Int, height: Int) -> TrackingPlan {
        TrackingPlan(readRegion: nextFrameReadRegion(width: width, height: height), detects: detectionDue)
    }

    /// Step 1: re-fits every tracked face on `frame` (only inside `plan`'s read region is read). Tracked
    /// faces are fitted on `frame` as it is: from RGB the landmark crop folds the luma into its box
    /// filter, so no gray image is made. Starts this frame's output; the tracker keeps no reference to
    /// `frame` after it returns.
    public func follow(_ frame: LumaFrame, timestampSeconds time: Double) {
        // The array returned two frames ago, taken out of its slot so it is unshared once the caller has
        // dropped it; emptying it leaves the anchors of that parity unshared too.
        let odd = frameIndex & 1 == 1
        current = odd ? outputs.odd : outputs.even
        if odd { outputs.odd = [] } else { outputs.even = [] }
        current.removeAll(keepingCapacity: true)
        currentTime = time
        for i in tracks.indices {
            let (shape, probability) = fit(frame, previous: tracks[i].rawLandmarks, box: nil)
            let pose = poseEstimator.estimate(landmarks: shape, camera: camera, previous: tracks[i].rawPose)
            var keep = pose != nil && Self.isInside(shape, frame)
            if keep, let probability, let threshold = classifier.map({ Double($0.threshold) }) {
                tracks[i].doubtful = probability < threshold ? tracks[i].doubtful + 1 : 0
                keep = tracks[i].doubtful < max(configuration.lossFrames, 1)
            } else if keep {
                keep = pose!.confidence >= configuration.lossConfidence
            }
            guard keep, let pose else {
                current.append(lostAnchor(tracks[i], time: time))
                tracks[i].dropped = true
                continue
            }
            Self.copy(shape, into: &tracks[i].rawLandmarks)
            tracks[i].rawPose = pose.cameraFromModel
            tracks[i].faceProbability = probability
            tracks[i].age += 1
            current.append(makeAnchor(&tracks[i], pose: pose, state: .tracked, time: time))
        }
        // Duplicates: two tracks that converged on one face keep the older identity.
        for i in tracks.indices where !tracks[i].dropped {
            for j in tracks.indices where j > i && !tracks[i].dropped && !tracks[j].dropped {
                let a = FaceBox.canonical(landmarks: tracks[i].rawLandmarks), b = FaceBox.canonical(landmarks: tracks[j].rawLandmarks)
                if a.iou(b) > configuration.duplicateIoU {
                    let younger = tracks[i].age >= tracks[j].age ? j : i
                    tracks[younger].dropped = true
                    let id = tracks[younger].id
                    current.removeAll { $0.id == id }
                }
            }
        }
        tracks.removeAll { $0.dropped }
    }

    /// After `follow`: the detector must run on this frame (nothing is tracked any more, or a periodic
    /// re-detection is due while there is room for more faces).
    public var wantsDetection: Bool { detectionDue }

    /// Step 2 (when `wantsDetection`): runs the detector on the whole frame in gray and starts a track
    /// for each box that does not overlap a face tracked before it, when its fit passes the classifier
    /// (or the pose confidence test).
    public func detect(in gray: GrayImage) {
        detectorRuns += 1
        let existing = tracks.count
        let boxes = mirrorAveraged ? mirrorDetection.boxes(detector, in: gray) : detector.detect(in: gray)
        for box in boxes where tracks.count < configuration.maxFaces {
            if tracks[0..<existing].contains(where: { FaceBox.canonical(landmarks: $0.rawLandmarks).iou(box) > 0.3 }) { continue }
            startTrack(gray, box: box)
        }
        // A photo where no box gave a face: its best windows under the detector's threshold, as
        // `lorgnette landmarks` fits them (`PhotoFaceDetector.standbyCount`), each accepted only when
        // the classifier judges its fit a face by `PhotoFaceJudging.standbyFitScore`. The second scan
        // runs only on photos (the video detector has no standby windows) and only when nothing was found.
        if tracks.isEmpty, let classifier, let photo = detector as? ContestedFaceDetector {
            let least = max(Double(classifier.threshold), Double(TrackingConfidenceModel.probability(score: PhotoFaceJudging.standbyFitScore)))
            for group in photo.detectContested(in: gray) where group.standby && tracks.count < configuration.maxFaces {
                startTrack(gray, box: group.box, leastProbability: least)
            }
        }
    }

    /// Starts a track from the fit in `box` when its pose is confident and the classifier (when there
    /// is one) gives it at least `leastProbability` (default: the classifier's threshold).
    private func startTrack(_ gray: GrayImage, box: FaceBox, leastProbability: Double? = nil) {
        let (shape, probability) = fit(.gray(gray), previous: nil, box: box)
        guard let pose = poseEstimator.estimate(landmarks: shape, camera: camera),
              pose.confidence >= configuration.startConfidence else { return }
        if let probability, let c = classifier, probability < (leastProbability ?? Double(c.threshold)) { return }
        var track = Track(id: nextID, rawLandmarks: shape, rawPose: pose.cameraFromModel,
                          landmarkFilter: LandmarkFilter(parameters: configuration.landmarkFilter),
                          poseFilter: PoseFilter(translation: configuration.poseTranslationFilter, rotation: configuration.poseRotationFilter,
                                                 depth: configuration.poseDepthFilter))
        nextID += 1
        track.faceProbability = probability
        current.append(makeAnchor(&track, pose: pose, state: .detected, time: currentTime))
        tracks.append(track)
    }

    /// Step 3: this frame's anchors (see `process`); the next frame starts after it.
    public func finishFrame() -> [FaceAnchor] {
        let odd = frameIndex & 1 == 1
        let output = current
        current = []
        if odd { outputs.odd = output } else { outputs.even = output }
        frameIndex += 1
        return output
    }

    /// The detector runs on this frame: nothing tracked, or a periodic re-detection with room for more.
    private var detectionDue: Bool {
        let periodic = configuration.redetectInterval > 0 && frameIndex % configuration.redetectInterval == 0
        return tracks.isEmpty || (periodic && tracks.count < configuration.maxFaces)
    }

    /// Writes `source` into `destination`, in place when the sizes match.
    private static func copy(_ source: [SIMD2<Float>], into destination: inout [SIMD2<Float>]) {
        guard destination.count == source.count else { destination = source; return }
        for i in source.indices { destination[i] = source[i] }
    }

    /// The part of the next frame that `follow` reads: the union of the landmark model's read regions,
    /// clipped to a `width` x `height` frame. Nil when the next frame runs the detector anyway or the
    /// landmark model does not say where it reads: then the whole frame is needed.
    func nextFrameReadRegion(width: Int, height: Int) -> PixelRect? {
        // The mirrored fit reads the mirror of the whole frame.
        if detectionDue || mirrorAveraged { return nil }
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for t in tracks {
            guard let r = landmarkModel.trackingReadRegion(previous: t.rawLandmarks) else { return nil }
            x0 = min(x0, r.x); y0 = min(y0, r.y); x1 = max(x1, r.maxX); y1 = max(y1, r.maxY)
        }
        return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1).clamped(toWidth: width, height: height)
    }

    /// A shape mostly outside the image cannot be tracked further.
    static func isInside(_ shape: [SIMD2<Float>], _ image: LumaFrame) -> Bool {
        let maxX = Float(image.width - 1), maxY = Float(image.height - 1)
        var inside = 0
        for p in shape where p.x >= 0 && p.y >= 0 && p.x <= maxX && p.y <= maxY { inside += 1 }
        return inside * 2 >= shape.count && shape.allSatisfy { $0.x.isFinite && $0.y.isFinite }
    }

    /// Jaw-width ratio of the raw landmarks to the posed mean face, or nil when the head is turned
    /// (beyond 12° the contour points slide round the cheek and stop measuring its breadth).
    func widthRatio(_ shape: [SIMD2<Float>], pose: RigidTransform) -> Double? {
        let angles = EulerAngles(pose.rotation).degrees
        guard abs(angles.y) < 12, abs(angles.x) < 20 else { return nil }
        var sum = 0.0, n = 0
        // The pairs (0, 16), (1, 15), (2, 14).
        for a in 0..<3 {
            let b = 16 - a
            let pa = pose.apply(poseEstimator.face.landmarks[a]), pb = pose.apply(poseEstimator.face.landmarks[b])
            guard pa.z > 1, pb.z > 1 else { return nil }
            let d = camera.project(pa) - camera.project(pb)
            let model = (d * d).sum().squareRoot()
            let o = shape[a] - shape[b]
            let observed = Double((o * o).sum().squareRoot())
            guard model > 1 else { return nil }
            sum += observed / model
            n += 1
        }
        return n > 0 ? sum / Double(n) : nil
    }

    /// Updates the track's anchor for this frame's parity in place (arrays reused) and returns it.
    private func makeAnchor(_ track: inout Track, pose: PoseEstimate, state: TrackingState, time: Double) -> FaceAnchor {
        if let ratio = widthRatio(track.rawLandmarks, pose: pose.cameraFromModel), ratio.isFinite {
            let r = min(max(ratio, 0.7), 1.3)
            if let previous = track.widthScale, let t0 = track.widthTime {
                // Exponential average with a one-second time constant.
                let a = 1 - Foundation.exp(-max(time - t0, 0) / 1.0)
                track.widthScale = previous + a * (r - previous)
            } else {
                track.widthScale = r
            }
            track.widthTime = time
        }
        let d = track.rawLandmarks[45] - track.rawLandmarks[36]
        let faceSize = Double((d * d).sum().squareRoot())
        // Taken out of its slot so that, once the caller dropped it, this is its only reference.
        let odd = frameIndex & 1 == 1
        var anchor = (odd ? track.anchors.odd : track.anchors.even) ?? Self.emptyAnchor(pose: pose)
        if odd { track.anchors.odd = nil } else { track.anchors.even = nil }
        var transform = pose.cameraFromModel
        if configuration.smoothing {
            track.landmarkFilter.parameters = configuration.landmarkFilter
            track.poseFilter.translation = configuration.poseTranslationFilter
            track.poseFilter.rotation = configuration.poseRotationFilter
            track.poseFilter.depth = configuration.poseDepthFilter
            track.landmarkFilter.filter(track.rawLandmarks, time: time, faceSize: max(faceSize, 1), into: &anchor.landmarks)
            transform = track.poseFilter.filter(transform, time: time)
        } else {
            Self.copy(track.rawLandmarks, into: &anchor.landmarks)
        }
        Self.update(&anchor, id: track.id, time: time, state: state, cameraFromFace: transform,
                    face: poseEstimator.face, camera: camera, pose: pose)
        anchor.faceProbability = track.faceProbability
        anchor.headWidthScale = track.widthScale ?? 1
        if odd { track.anchors.odd = anchor } else { track.anchors.even = anchor }
        return anchor
    }

    private func lostAnchor(_ track: Track, time: Double) -> FaceAnchor {
        let pose = PoseEstimate(cameraFromModel: track.rawPose, reprojectionRMSPx: .infinity, weightedRMSPx: .infinity, confidence: 0, iterations: 0)
        return Self.anchor(id: track.id, time: time, state: .lost, cameraFromFace: track.rawPose, landmarks: track.rawLandmarks,
                           face: poseEstimator.face, camera: camera, pose: pose)
    }

    /// Builds an anchor from a pose and landmarks (public so other loops, e.g. a still-image path, share it).
    public static func anchor(id: Int, time: Double, state: TrackingState, cameraFromFace: RigidTransform, landmarks: [SIMD2<Float>],
                              face: MeanFace, camera: CameraIntrinsics, pose: PoseEstimate) -> FaceAnchor {
        var anchor = emptyAnchor(pose: pose)
        anchor.landmarks = landmarks
        update(&anchor, id: id, time: time, state: state, cameraFromFace: cameraFromFace, face: face, camera: camera, pose: pose)
        return anchor
    }

    /// An anchor with no points, for `update` to fill.
    private static func emptyAnchor(pose: PoseEstimate) -> FaceAnchor {
        FaceAnchor(id: 0, timestampSeconds: 0, state: .tracked, cameraFromFace: pose.cameraFromModel, landmarks: [], landmarksCamera: [],
                   pupils: [], eyeTransforms: [], faceForward: .zero, confidence: 0, measuredPose: pose,
                   box: FaceBox(x: 0, y: 0, width: 0, height: 0))
    }

    /// Sets everything `anchor(id:...)` derives from the pose, given `anchor.landmarks`, writing the
    /// arrays in place when they have the right size (and are not shared).
    private static func update(_ anchor: inout FaceAnchor, id: Int, time: Double, state: TrackingState, cameraFromFace: RigidTransform,
                               face: MeanFace, camera: CameraIntrinsics, pose: PoseEstimate) {
        anchor.id = id
        anchor.timestampSeconds = time
        anchor.state = state
        anchor.cameraFromFace = cameraFromFace
        let eyes = face.pupils.count
        if anchor.pupils.count != eyes || anchor.eyeTransforms.count != eyes {
            anchor.pupils = [SIMD2<Float>](repeating: .zero, count: eyes)
            anchor.eyeTransforms = [RigidTransform](repeating: cameraFromFace, count: eyes)
        }
        for k in 0..<eyes {
            let p = cameraFromFace.apply(face.pupils[k])
            let q = p.z > 1 ? camera.project(p) : SIMD2(Double.nan, Double.nan)
            anchor.pupils[k] = SIMD2(Float(q.x), Float(q.y))
            anchor.eyeTransforms[k] = RigidTransform(rotation: cameraFromFace.rotation, translation: p)
        }
        let points = face.landmarks.count
        if anchor.landmarksCamera.count != points { anchor.landmarksCamera = [SIMD3<Double>](repeating: .zero, count: points) }
        for k in 0..<points { anchor.landmarksCamera[k] = cameraFromFace.apply(face.landmarks[k]) }
        anchor.faceForward = -(cameraFromFace.rotation.matrix.c2)
        anchor.confidence = pose.confidence
        anchor.measuredPose = pose
        anchor.faceProbability = nil
        anchor.headWidthScale = 1
        anchor.box = FaceBox.canonical(landmarks: anchor.landmarks)
    }
}
