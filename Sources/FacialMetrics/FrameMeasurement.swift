import FaceModel
import Geometry

/// Every metric of one frame, in millimetres, with the scale it was made with.
///
/// - `pdNear`: binocular PD as seen, the pupils converged on the camera at `cameraDistance`.
/// - `pdFar`: distance PD: the eye-rotation centres' separation (`EyeRotationModel`).
/// - `monoFarRight`, `monoFarLeft`: the subject's right eye (image left) and left eye, pupil (far)
///   to the nose-bridge midline (landmarks 27–30 on the face's sagittal plane).
/// - `templeWidth`: between the face-contour points at eye level (landmarks 0 and 16) placed at the
///   mean face's depth for them; `faceWidth`: the same at cheekbone level (landmarks 1 and 15).
/// - `cameraDistance`: camera centre to the midpoint of the pupils.
/// Widths are measured along the face's x axis, so small yaw does not shorten them.
public struct FrameMeasurement: Sendable {
    public var method: ScaleMethod
    public var scaleRelativeSD: Double
    public var pdNear: Double
    public var pdFar: Double
    public var monoFarRight: Double
    public var monoFarLeft: Double
    public var templeWidth: Double
    public var faceWidth: Double
    public var cameraDistance: Double
    /// Millimetres per pixel at the pupils (for per-frame noise floors).
    public var mmPerPixel: Double
    /// The 3D pupils (camera space, mm): image-left eye, image-right eye.
    public var pupilLeft3D: SIMD3<Double>
    public var pupilRight3D: SIMD3<Double>
    /// Both, image-left first (allocates).
    public var pupils3D: [SIMD3<Double>] { [pupilLeft3D, pupilRight3D] }
}

/// Turns one frame's refined pupils, landmarks and pose into millimetres with a `MetricScale`.
///
/// Back-projection: a pixel's ray meets the plane parallel to the face's x–y plane at the mean face's
/// depth for that landmark, offset from the pupils' plane given by the scale. Pixel-centre convention;
/// lens distortion removed through the intrinsics.
public struct FaceMeasurer: Sendable {
    public var face: MeanFace
    public var camera: CameraIntrinsics
    public var eyeModel = EyeRotationModel()

    public init(face: MeanFace, camera: CameraIntrinsics) {
        self.face = face
        self.camera = camera
    }

    public func measure(landmarks: [SIMD2<Float>], cameraFromFace: RigidTransform, eyes: [RefinedEye], scale: MetricScale) -> FrameMeasurement? {
        guard eyes.count == 2 else { return nil }
        return measure(landmarks: landmarks, cameraFromFace: cameraFromFace, eyes: EyePair(left: eyes[0], right: eyes[1]), scale: scale)
    }

    /// `measure` for a pair of eyes (no allocation).
    public func measure(landmarks: [SIMD2<Float>], cameraFromFace: RigidTransform, eyes: EyePair, scale: MetricScale) -> FrameMeasurement? {
        guard landmarks.count == 68 else { return nil }
        let r = cameraFromFace.rotation.matrix
        let xAxis = r.c0, zAxis = r.c2
        let planeOffset = zAxis.dot(scale.pupilPlanePoint)
        func point(_ p: SIMD2<Float>, depthBehindPupils: Double) -> SIMD3<Double>? {
            let n = camera.normalised(pixel: SIMD2(Double(p.x), Double(p.y)))
            let ray = SIMD3(n.x, n.y, 1)
            let den = zAxis.dot(ray)
            guard abs(den) > 1e-6 else { return nil }
            let t = (planeOffset + depthBehindPupils) / den
            return t > 0 ? ray * t : nil
        }
        guard let pl = point(eyes.left.pupil, depthBehindPupils: 0), let pr = point(eyes.right.pupil, depthBehindPupils: 0) else { return nil }
        let pupilZ = (face.pupils[0].z + face.pupils[1].z) / 2
        var midline = 0.0, count = 0.0
        for k in 27...30 {
            guard let m = point(landmarks[k], depthBehindPupils: face.landmarks[k].z - pupilZ) else { return nil }
            midline += m.dot(xAxis); count += 1
        }
        midline /= count
        func width(_ a: Int, _ b: Int) -> Double? {
            guard let pa = point(landmarks[a], depthBehindPupils: face.landmarks[a].z - pupilZ),
                  let pb = point(landmarks[b], depthBehindPupils: face.landmarks[b].z - pupilZ) else { return nil }
            return abs((pb - pa).dot(xAxis))
        }
        guard let temple = width(0, 16), let faceWidth = width(1, 15) else { return nil }
        let cl = eyeModel.rotationCentre(pupil: pl), cr = eyeModel.rotationCentre(pupil: pr)
        let near = abs((pr - pl).dot(xAxis))
        let far = abs((cr - cl).dot(xAxis))
        let monoRight = abs(cl.dot(xAxis) - midline), monoLeft = abs(cr.dot(xAxis) - midline)
        let mid = (pl + pr) / 2
        let pxDistance = Double(length(eyes.right.pupil - eyes.left.pupil))
        return FrameMeasurement(method: scale.method, scaleRelativeSD: scale.relativeSD, pdNear: near, pdFar: far,
                                monoFarRight: monoRight, monoFarLeft: monoLeft, templeWidth: temple, faceWidth: faceWidth,
                                cameraDistance: mid.length, mmPerPixel: pxDistance > 0 ? near / pxDistance : 0, pupilLeft3D: pl, pupilRight3D: pr)
    }
}
