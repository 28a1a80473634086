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
    /// The face's x axis (camera space) the widths are measured along, and the nose-bridge midline's
    /// coordinate on it (mm): what `rescaled(by:)` needs to redo the mono PDs.
    public var faceXAxis: SIMD3<Double>
    public var midlineX: Double
    /// The visible iris diameter at this frame's scale (mm, mean of the two eyes; nan without one).
    public var irisDiameter: Double
    /// Outer plus inner eye-corner separations (landmarks 36–45 and 39–42) along the face's x axis,
    /// at this frame's scale (mm): the canthi are fixed to the skull, so their span is the frame's
    /// most stable size reference (the jaw and mouth landmarks move with speech and expression).
    public var eyeCornerSpan: Double

    /// The same frame for a head `factor` times as large at `factor` times the distance (everything
    /// scales, except that the eyes' rotation centres stay 10.45 mm behind the pupils): exact when
    /// the frame was measured with the camera scale and the person's head is `factor` × the mean face.
    public func rescaled(by factor: Double, eyeModel: EyeRotationModel = EyeRotationModel()) -> FrameMeasurement {
        var m = self
        m.pupilLeft3D = pupilLeft3D * factor
        m.pupilRight3D = pupilRight3D * factor
        m.midlineX = midlineX * factor
        let cl = eyeModel.rotationCentre(pupil: m.pupilLeft3D), cr = eyeModel.rotationCentre(pupil: m.pupilRight3D)
        m.pdNear = abs((m.pupilRight3D - m.pupilLeft3D).dot(faceXAxis))
        m.pdFar = abs((cr - cl).dot(faceXAxis))
        m.monoFarRight = abs(cl.dot(faceXAxis) - m.midlineX)
        m.monoFarLeft = abs(cr.dot(faceXAxis) - m.midlineX)
        m.templeWidth = templeWidth * factor
        m.faceWidth = faceWidth * factor
        m.cameraDistance = cameraDistance * factor
        m.mmPerPixel = mmPerPixel * factor
        m.irisDiameter = irisDiameter * factor
        m.eyeCornerSpan = eyeCornerSpan * factor
        return m
    }
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
        guard let temple = width(0, 16), let faceWidth = width(1, 15), let outer = width(36, 45), let inner = width(39, 42) else { return nil }
        let cl = eyeModel.rotationCentre(pupil: pl), cr = eyeModel.rotationCentre(pupil: pr)
        let near = abs((pr - pl).dot(xAxis))
        let far = abs((cr - cl).dot(xAxis))
        let monoRight = abs(cl.dot(xAxis) - midline), monoLeft = abs(cr.dot(xAxis) - midline)
        let mid = (pl + pr) / 2
        let pxDistance = Double(length(eyes.right.pupil - eyes.left.pupil))
        // Each eye's iris diameter at its pupil's depth (the disc faces the camera while the eye fixates it).
        let f = (camera.fx + camera.fy) / 2
        var iris = Double.nan
        if let dl = eyes.left.irisDiameterPx, let dr = eyes.right.irisDiameterPx { iris = (dl * pl.z + dr * pr.z) / (2 * f) }
        return FrameMeasurement(method: scale.method, scaleRelativeSD: scale.relativeSD, pdNear: near, pdFar: far,
                                monoFarRight: monoRight, monoFarLeft: monoLeft, templeWidth: temple, faceWidth: faceWidth,
                                cameraDistance: mid.length, mmPerPixel: pxDistance > 0 ? near / pxDistance : 0, pupilLeft3D: pl, pupilRight3D: pr,
                                faceXAxis: xAxis, midlineX: midline, irisDiameter: iris, eyeCornerSpan: outer + inner)
    }
}
