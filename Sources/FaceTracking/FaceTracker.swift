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
    }

    private var tracks: [Track] = []
    private var nextID = 0
    private var frameIndex = 0
    /// Frames on which the detector ran (for statistics).
    public private(set) var detectorRuns = 0
    /// The cascade and classifier when the configuration's confidence model fits the landmark model.
    private var classifier: (cascade: LandmarkCascade, model: TrackingConfidenceModel)?

    public init(detector: any FaceDetector, landmarkModel: any LandmarkModel, poseEstimator: FacePoseEstimator,
                camera: CameraIntrinsics, configuration: FaceTrackerConfiguration = FaceTrackerConfiguration()) {
        self.detector = detector
        self.landmarkModel = landmarkModel
        self.poseEstimator = poseEstimator
        self.camera = camera
        self.configuration = configuration
        if let model = configuration.confidenceModel, var cascade = landmarkModel as? LandmarkCascade, model.matches(cascade) {
            // Detection frames refine the start from the box and let the classifier pick among starts.
            cascade.detectionRefinement = DetectionRefinement(scorer: model)
            classifier = (cascade, model)
        }
    }

    /// Whether loss is decided by the tracking-confidence classifier (a model was configured and it
    /// was trained for this landmark model) rather than by the pose fit.
    public var usesConfidenceModel: Bool { classifier != nil }

    /// Landmarks from tracking or from a box, with the classifier's face probability when there is one.
    private func fit(_ image: GrayImage, previous: [SIMD2<Float>]?, box: FaceBox?) -> (shape: [SIMD2<Float>], probability: Double?) {
        if let c = classifier {
            let fitted = previous.map { c.cascade.trackWithFeatures(in: image, previous: $0) } ?? c.cascade.landmarksWithFeatures(in: image, box: box!)
            return (fitted.landmarks, Double(c.model.probability(fitted.features)))
        }
        return (previous.map { landmarkModel.track(in: image, previous: $0) } ?? landmarkModel.landmarks(in: image, box: box!), nil)
    }

    public var trackedFaceCount: Int { tracks.count }

    /// Forgets every face (e.g. after a seek).
    public func reset() { tracks = [] }

    /// Processes one frame. Returns one anchor per tracked or newly detected face, plus one `lost`
    /// anchor for each face lost on this frame (carrying its last pose).
    public func process(_ image: GrayImage, timestampSeconds time: Double) -> [FaceAnchor] {
        defer { frameIndex += 1 }
        var anchors: [FaceAnchor] = []
        var survivors: [Track] = []
        for var track in tracks {
            let (shape, probability) = fit(image, previous: track.rawLandmarks, box: nil)
            let pose = poseEstimator.estimate(landmarks: shape, camera: camera, previous: track.rawPose)
            var keep = pose != nil && Self.isInside(shape, image)
            if keep, let probability, let threshold = classifier.map({ Double($0.model.threshold) }) {
                track.doubtful = probability < threshold ? track.doubtful + 1 : 0
                keep = track.doubtful < max(configuration.lossFrames, 1)
            } else if keep {
                keep = pose!.confidence >= configuration.lossConfidence
            }
            guard keep, let pose else {
                anchors.append(lostAnchor(track, time: time))
                continue
            }
            track.rawLandmarks = shape
            track.rawPose = pose.cameraFromModel
            track.faceProbability = probability
            track.age += 1
            anchors.append(makeAnchor(&track, pose: pose, state: .tracked, time: time))
            survivors.append(track)
        }
        // Duplicates: two tracks that converged on one face keep the older identity.
        var keep = [Bool](repeating: true, count: survivors.count)
        for i in survivors.indices {
            for j in survivors.indices where j > i && keep[i] && keep[j] {
                let a = FaceBox.canonical(landmarks: survivors[i].rawLandmarks), b = FaceBox.canonical(landmarks: survivors[j].rawLandmarks)
                if a.iou(b) > configuration.duplicateIoU {
                    if survivors[i].age >= survivors[j].age { keep[j] = false } else { keep[i] = false }
                }
            }
        }
        let droppedIDs = Set(survivors.indices.filter { !keep[$0] }.map { survivors[$0].id })
        anchors.removeAll { droppedIDs.contains($0.id) }
        tracks = survivors.indices.filter { keep[$0] }.map { survivors[$0] }

        let periodic = configuration.redetectInterval > 0 && frameIndex % configuration.redetectInterval == 0
        if tracks.isEmpty || (periodic && tracks.count < configuration.maxFaces) {
            detectorRuns += 1
            let existing = tracks.map { FaceBox.canonical(landmarks: $0.rawLandmarks) }
            for box in detector.detect(in: image) where tracks.count < configuration.maxFaces {
                if existing.contains(where: { $0.iou(box) > 0.3 }) { continue }
                let (shape, probability) = fit(image, previous: nil, box: box)
                guard let pose = poseEstimator.estimate(landmarks: shape, camera: camera),
                      pose.confidence >= configuration.startConfidence else { continue }
                if let probability, let c = classifier, probability < Double(c.model.threshold) { continue }
                var track = Track(id: nextID, rawLandmarks: shape, rawPose: pose.cameraFromModel,
                                  landmarkFilter: LandmarkFilter(parameters: configuration.landmarkFilter),
                                  poseFilter: PoseFilter(translation: configuration.poseTranslationFilter, rotation: configuration.poseRotationFilter,
                                                         depth: configuration.poseDepthFilter))
                nextID += 1
                track.faceProbability = probability
                anchors.append(makeAnchor(&track, pose: pose, state: .detected, time: time))
                tracks.append(track)
            }
        }
        return anchors
    }

    /// A shape mostly outside the image cannot be tracked further.
    static func isInside(_ shape: [SIMD2<Float>], _ image: GrayImage) -> Bool {
        var inside = 0
        for p in shape where p.x >= 0 && p.y >= 0 && p.x <= Float(image.width - 1) && p.y <= Float(image.height - 1) { inside += 1 }
        return inside * 2 >= shape.count && shape.allSatisfy { $0.x.isFinite && $0.y.isFinite }
    }

    /// Jaw-width ratio of the raw landmarks to the posed mean face, or nil when the head is turned
    /// (beyond 12° the contour points slide round the cheek and stop measuring its breadth).
    func widthRatio(_ shape: [SIMD2<Float>], pose: RigidTransform) -> Double? {
        let angles = EulerAngles(pose.rotation).degrees
        guard abs(angles.y) < 12, abs(angles.x) < 20 else { return nil }
        var sum = 0.0, n = 0
        for (a, b) in [(0, 16), (1, 15), (2, 14)] {
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
        var landmarks = track.rawLandmarks
        var transform = pose.cameraFromModel
        if configuration.smoothing {
            track.landmarkFilter.parameters = configuration.landmarkFilter
            track.poseFilter.translation = configuration.poseTranslationFilter
            track.poseFilter.rotation = configuration.poseRotationFilter
            track.poseFilter.depth = configuration.poseDepthFilter
            landmarks = track.landmarkFilter.filter(landmarks, time: time, faceSize: max(faceSize, 1))
            transform = track.poseFilter.filter(transform, time: time)
        }
        var anchor = Self.anchor(id: track.id, time: time, state: state, cameraFromFace: transform, landmarks: landmarks,
                                 face: poseEstimator.face, camera: camera, pose: pose)
        anchor.faceProbability = track.faceProbability
        anchor.headWidthScale = track.widthScale ?? 1
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
        let pupils3 = face.pupils.map { cameraFromFace.apply($0) }
        let pupils = pupils3.map { p -> SIMD2<Float> in
            let q = p.z > 1 ? camera.project(p) : SIMD2(Double.nan, Double.nan)
            return SIMD2(Float(q.x), Float(q.y))
        }
        let eyes = pupils3.map { RigidTransform(rotation: cameraFromFace.rotation, translation: $0) }
        return FaceAnchor(id: id, timestampSeconds: time, state: state, cameraFromFace: cameraFromFace, landmarks: landmarks,
                          landmarksCamera: face.landmarks.map { cameraFromFace.apply($0) }, pupils: pupils, eyeTransforms: eyes,
                          faceForward: -(cameraFromFace.rotation.matrix.c2), confidence: pose.confidence, measuredPose: pose,
                          box: FaceBox.canonical(landmarks: landmarks))
    }
}
