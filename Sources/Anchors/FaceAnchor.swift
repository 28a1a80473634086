import FaceDetection
import Geometry
import PoseEstimation

/// One face on one frame, in the spirit of ARKit's `ARFaceAnchor`: a metric rigid anchor that glasses
/// can be attached to.
///
/// Frames and units: `cameraFromFace` maps `MeanFace` coordinates (mm; origin between the pupils,
/// x to the image right, y down, z into the head) to camera coordinates (mm; x right, y down, z forward).
/// 2D quantities are pixels of the input image (pixel-centre convention). Pairs are image-left first.
/// With smoothing on, `cameraFromFace`, `landmarks` and everything derived from them are filtered;
/// `measuredPose` is the unfiltered per-frame solution.
public struct FaceAnchor: Sendable {
    /// Stable identity while the face stays tracked; a face found again after loss gets a new id.
    public var id: Int
    public var timestampSeconds: Double
    public var state: TrackingState
    public var cameraFromFace: RigidTransform
    /// The 68 landmarks in pixels (filtered when smoothing is on).
    public var landmarks: [SIMD2<Float>]
    /// The mean face's 68 landmarks placed by `cameraFromFace` (camera space, mm).
    public var landmarksCamera: [SIMD3<Double>]
    /// Pupil centres in pixels: the mean face's pupils projected with the anchor's pose.
    public var pupils: [SIMD2<Float>]
    /// Per eye (image-left first): origin at the pupil, axes parallel to the face's. No gaze is
    /// estimated, so the eyes turn with the head.
    public var eyeTransforms: [RigidTransform]
    /// Unit vector (camera frame) the face points along (−z of the face frame): the look-at direction
    /// of the head, not a gaze. Pupils refined inside the eyes come from `FacialMetrics.PupilRefiner`
    /// (`lorgnette track` reports those); turning them into eye rotations is not done.
    public var faceForward: SIMD3<Double>
    /// In [0, 1]: the pose fit's confidence (see `FacePoseEstimator.confidence`).
    public var confidence: Double
    /// In [0, 1]: the tracking-confidence classifier's probability that the fitted shape is on a face
    /// (`TrackingConfidenceModel`), nil when the tracker runs without one.
    public var faceProbability: Double? = nil
    /// The tracked face's width relative to the mean face (1 = mean): the image distance between the
    /// jaw contour's upper points (0–16, 1–15, 2–14) over that of the posed mean face, from frames
    /// within 12° of frontal (where the contour is the cheek's outline), averaged over about a second.
    /// Glasses temples open to it (`TryOnRenderer`).
    public var headWidthScale: Double = 1
    /// The unfiltered pose solution of this frame.
    public var measuredPose: PoseEstimate
    /// Axis-aligned box around the landmarks.
    public var box: FaceBox

    public init(id: Int, timestampSeconds: Double, state: TrackingState, cameraFromFace: RigidTransform, landmarks: [SIMD2<Float>],
                landmarksCamera: [SIMD3<Double>], pupils: [SIMD2<Float>], eyeTransforms: [RigidTransform], faceForward: SIMD3<Double>,
                confidence: Double, faceProbability: Double? = nil, headWidthScale: Double = 1, measuredPose: PoseEstimate, box: FaceBox) {
        self.id = id
        self.timestampSeconds = timestampSeconds
        self.state = state
        self.cameraFromFace = cameraFromFace
        self.landmarks = landmarks
        self.landmarksCamera = landmarksCamera
        self.pupils = pupils
        self.eyeTransforms = eyeTransforms
        self.faceForward = faceForward
        self.confidence = confidence
        self.faceProbability = faceProbability
        self.headWidthScale = headWidthScale
        self.measuredPose = measuredPose
        self.box = box
    }

    /// [pitch, yaw, roll] in degrees of `cameraFromFace` (see `EulerAngles`).
    public var rotationDegrees: SIMD3<Double> { EulerAngles(cameraFromFace.rotation).degrees }
    public var translationMM: SIMD3<Double> { cameraFromFace.translation }
}
