import Geometry

/// One solved pose: the rigid motion taking model coordinates (mm) to camera coordinates (mm),
/// with how well it explains the observed image points.
public struct PoseEstimate: Sendable, Equatable {
    public var cameraFromModel: RigidTransform
    /// Root-mean-square reprojection error over all points, in pixels (undistorted image).
    public var reprojectionRMSPx: Double
    /// The same over the points weighted by their base weight (jaw down-weighted for faces), in pixels.
    public var weightedRMSPx: Double
    /// In [0, 1]: 1 for a perfect fit, falling as the reprojection error grows relative to the object's
    /// image size (see `FacePoseEstimator.confidence`).
    public var confidence: Double
    /// Levenberg–Marquardt iterations taken.
    public var iterations: Int

    public init(cameraFromModel: RigidTransform, reprojectionRMSPx: Double, weightedRMSPx: Double, confidence: Double, iterations: Int) {
        self.cameraFromModel = cameraFromModel
        self.reprojectionRMSPx = reprojectionRMSPx
        self.weightedRMSPx = weightedRMSPx
        self.confidence = confidence
        self.iterations = iterations
    }

    /// [pitch, yaw, roll] in degrees (see `EulerAngles` for the convention).
    public var rotationDegrees: SIMD3<Double> { EulerAngles(cameraFromModel.rotation).degrees }
    public var translationMM: SIMD3<Double> { cameraFromModel.translation }
}
