import Foundation
import FaceTracking
import Geometry

/// Decides whether one frame is good enough to measure, and says why not.
///
/// Accepted when the head faces the camera (|yaw| and |pitch| below `maxAngleDegrees`, measured
/// against the line of sight to the face, so an off-centre face looking at the lens passes), both eyes
/// are open with an iris found, the limbus is sharp (mean step ≥ `minimumLimbusContrast` grey levels
/// per pixel and circle residual ≤ `maximumLimbusResidualPx`), the two iris diameters agree within
/// `maximumIrisMismatch`, and the face is large enough (pupils
/// ≥ `minimumPupilDistancePx` apart, which puts ≈ 11 px or more across each iris).
public struct FrameGate: Sendable {
    public enum Rejection: String, Sendable, CaseIterable {
        case turned = "head turned (look straight at the camera)"
        case tilted = "head tilted up or down (look straight at the camera)"
        case eyesClosed = "eyes closed or iris not found"
        case blurred = "eyes not sharp (hold still)"
        case irisMismatch = "the two irises measure differently (eyes wide open, look straight at the camera)"
        case tooSmall = "face too small (come closer)"
    }

    public var maxAngleDegrees = 5.0
    public var minimumLimbusContrast = 8.0
    public var maximumLimbusResidualPx = 0.8
    public var minimumPupilDistancePx: Float = 60
    /// Largest relative difference between the two iris diameters. Facing the camera (|yaw| < 5°)
    /// at ≥ 250 mm the nearer eye is < 2 % larger; more means a fit on a lid or a catchlight.
    public var maximumIrisMismatch = 0.06

    public init() {}

    /// Yaw and pitch (degrees) of the face relative to the line of sight from the camera to it.
    public static func viewAngles(cameraFromFace: RigidTransform) -> (yaw: Double, pitch: Double) {
        let v = cameraFromFace.translation.normalized
        let xc = SIMD3<Double>(0, 1, 0).cross(v).normalized
        let yc = v.cross(xc)
        let z = cameraFromFace.rotation.matrix.c2
        let k = 180 / Double.pi
        return (atan2(z.dot(xc), z.dot(v)) * k, atan2(z.dot(yc), z.dot(v)) * k)
    }

    public func check(cameraFromFace: RigidTransform, eyes: [RefinedEye]) -> [Rejection] {
        var out: [Rejection] = []
        let a = Self.viewAngles(cameraFromFace: cameraFromFace)
        if !(abs(a.yaw) < maxAngleDegrees) { out.append(.turned) }
        if !(abs(a.pitch) < maxAngleDegrees) { out.append(.tilted) }
        if eyes.count != 2 || !eyes.allSatisfy({ $0.isOpen && $0.irisDiameterPx != nil }) {
            out.append(.eyesClosed)
        } else if !eyes.allSatisfy({ $0.limbusContrast >= minimumLimbusContrast && $0.limbusResidualPx <= maximumLimbusResidualPx }) {
            out.append(.blurred)
        } else if let a = eyes[0].irisDiameterPx, let b = eyes[1].irisDiameterPx, !(abs(a - b) <= maximumIrisMismatch * (a + b) / 2) {
            out.append(.irisMismatch)
        }
        if eyes.count == 2 && length(eyes[1].pupil - eyes[0].pupil) < minimumPupilDistancePx { out.append(.tooSmall) }
        return out
    }
}
