/// Near PD to far PD: while the subject looks at the camera each eye has turned about its centre of
/// rotation so that its pupil lies on the line from the rotation centre to the camera. The rotation
/// centre is therefore `pupilToRotationCentreMM` (13.5 − 3.05 = 10.45 mm, `OcularConstants`) behind
/// the pupil along the ray from the camera, and the distance PD is the separation of the two centres
/// (the eyes' positions when looking at infinity). At 500 mm this adds ≈ 2 % to the near PD.
/// Camera space, millimetres, camera at the origin.
public struct EyeRotationModel: Sendable {
    public var pupilToRotationCentreMM = OcularConstants.pupilToRotationCentreMM

    public init() {}

    public func rotationCentres(pupils: [SIMD3<Double>]) -> [SIMD3<Double>] {
        pupils.map(rotationCentre(pupil:))
    }

    /// The rotation centre of one eye whose pupil is at `p` while it fixates the camera.
    public func rotationCentre(pupil p: SIMD3<Double>) -> SIMD3<Double> {
        let l = p.length
        return l > 0 ? p + p / l * pupilToRotationCentreMM : p
    }

    /// Where pupils whose rotation centres are `centres` appear when both eyes fixate `target`.
    public func pupils(centres: [SIMD3<Double>], fixating target: SIMD3<Double>) -> [SIMD3<Double>] {
        centres.map { c in
            let d = target - c
            return c + d / d.length * pupilToRotationCentreMM
        }
    }
}
