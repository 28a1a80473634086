import Geometry

/// An ISO/IEC 7810 ID-1 card (85.60 × 53.98 mm) found in a frame.
///
/// `corners` are pixels (pixel-centre convention) in the order top-left, top-right, bottom-right,
/// bottom-left of the image. `cameraFromCard` places the card frame (mm; origin at the card's centre,
/// x along the long edge to the image right, y down, z away from the camera) in camera space, from the
/// corner homography and the intrinsics (Zhang, "A flexible new technique for camera calibration",
/// PAMI 2000, §3.1). `relativeScaleSD` is the fractional 1-SD uncertainty of its size in the image
/// from the edge fits; `tiltDegrees` is the angle between the card's normal and the face's z axis.
public struct CardObservation: Sendable {
    public enum Placement: String, Sendable { case forehead, underNose = "under-nose" }
    public static let widthMM = 85.60
    public static let heightMM = 53.98

    public var corners: [SIMD2<Double>]
    public var cameraFromCard: RigidTransform
    public var placement: Placement
    public var relativeScaleSD: Double
    public var tiltDegrees: Double

    public init(corners: [SIMD2<Double>], cameraFromCard: RigidTransform, placement: Placement, relativeScaleSD: Double, tiltDegrees: Double) {
        self.corners = corners
        self.cameraFromCard = cameraFromCard
        self.placement = placement
        self.relativeScaleSD = relativeScaleSD
        self.tiltDegrees = tiltDegrees
    }
}
