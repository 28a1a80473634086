import Geometry

/// The metric scale of one frame: where the pupils' plane is in camera space (mm), so that pixels
/// can be back-projected to millimetres, and how uncertain that is.
///
/// `pupilPlanePoint` lies on the plane through both pupils, parallel to the face's x–y plane (normal:
/// the face's z axis from the pose). `relativeSD` is the fractional 1-SD uncertainty of the scale that
/// no amount of averaging removes (population spread of the iris, head size, card placement);
/// per-frame noise shows up as spread between frames instead.
public struct MetricScale: Sendable {
    public var method: ScaleMethod
    public var pupilPlanePoint: SIMD3<Double>
    public var relativeSD: Double

    public init(method: ScaleMethod, pupilPlanePoint: SIMD3<Double>, relativeSD: Double) {
        self.method = method
        self.pupilPlanePoint = pupilPlanePoint
        self.relativeSD = relativeSD
    }

    /// Iris scale: each eye's depth is `f · 11.7 mm / irisDiameterPx` along the ray through its
    /// pupil; the plane point is the mean of the two. PD from it does not depend on `f` to first
    /// order (pixels and depth scale together). Nil unless both eyes have an iris diameter.
    public static func iris(eyes: [RefinedEye], camera: CameraIntrinsics) -> MetricScale? {
        guard eyes.count == 2 else { return nil }
        return iris(eyes: EyePair(left: eyes[0], right: eyes[1]), camera: camera)
    }

    /// `iris(eyes:camera:)` for a pair (no allocation).
    public static func iris(eyes: EyePair, camera: CameraIntrinsics) -> MetricScale? {
        func point(_ e: RefinedEye) -> SIMD3<Double>? {
            guard let d = e.irisDiameterPx, d > 1 else { return nil }
            let f = (camera.fx + camera.fy) / 2
            let z = f * OcularConstants.irisDiameterMM / d
            let n = camera.normalised(pixel: SIMD2(Double(e.pupil.x), Double(e.pupil.y)))
            return SIMD3(n.x * z, n.y * z, z)
        }
        guard let a = point(eyes.left), let b = point(eyes.right) else { return nil }
        return MetricScale(method: .iris, pupilPlanePoint: (a + b) / 2,
                           relativeSD: OcularConstants.irisDiameterSDMM / OcularConstants.irisDiameterMM)
    }

    /// Camera scale: the pose's own translation (the mean face's origin lies midway between its
    /// pupils), i.e. the PnP depth. Its scale error is the head-size spread.
    public static func camera(cameraFromFace: RigidTransform) -> MetricScale {
        MetricScale(method: .camera, pupilPlanePoint: cameraFromFace.translation, relativeSD: OcularConstants.headSizeRelativeSD)
    }

    /// Card scale: the card's plane (`CardPlane`: lean from the corners, yaw and roll from the face,
    /// distance from the card's width; the corner homography's own plane when that is degenerate)
    /// moved back along the face's z axis by the card's stand-off in front of the pupils
    /// (`OcularConstants`). `relativeSD` combines the card's own scale uncertainty with the
    /// stand-off's spread at that distance.
    public static func card(_ card: CardObservation, cameraFromFace: RigidTransform, camera: CameraIntrinsics) -> MetricScale {
        let z = cameraFromFace.rotation.matrix.c2
        let standOff = card.placement == .forehead ? OcularConstants.foreheadCardInFrontOfPupilsMM : OcularConstants.underNoseCardInFrontOfPupilsMM
        let plane = CardPlane(card: card, cameraFromFace: cameraFromFace, camera: camera) ?? CardPlane(cameraFromCard: card.cameraFromCard)
        // The pupils' plane point: the ray through the face origin meets the card plane, then step back.
        let ray = cameraFromFace.translation.normalized
        let onCard = ray * (plane.offset / plane.normal.dot(ray))
        let point = onCard + z * standOff
        let distance = point.length
        let rel = (card.relativeScaleSD * card.relativeScaleSD
                   + (OcularConstants.cardPlaneDepthSDMM / distance) * (OcularConstants.cardPlaneDepthSDMM / distance)).squareRoot()
        return MetricScale(method: .card, pupilPlanePoint: point, relativeSD: rel)
    }
}
