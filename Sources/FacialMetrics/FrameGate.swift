import Foundation
import Geometry

/// Decides whether one frame is good enough to measure, and says why not.
///
/// Accepted when the head faces the camera (|yaw| below `maxYawDegrees`, |pitch| below `maxPitchDegrees`, measured
/// against the line of sight to the face, so an off-centre face looking at the lens passes), both eyes
/// are open with an iris found and at least half the iris's height visible between the lids, the limbus is sharp (mean step ≥ `minimumLimbusContrast` grey levels
/// per pixel and circle residual ≤ `maximumLimbusResidualPx`), the two iris diameters agree within
/// `maximumIrisMismatch`, and the face is large enough (pupils
/// ≥ `minimumPupilDistancePx` apart, which puts ≈ 11 px or more across each iris).
public struct FrameGate: Sendable {
    public enum Rejection: String, Sendable, CaseIterable {
        case turned = "head turned (face the camera)"
        case tilted = "head tilted up or down (face the camera)"
        case eyesClosed = "eyes closed or iris not found"
        case squinting = "eyes too narrow to see the iris (open your eyes wide)"
        case blurred = "eyes not sharp (hold still)"
        case irisMismatch = "the two irises measure differently (eyes wide open, look straight at the camera)"
        case tooSmall = "face too small (come closer)"

        var bit: Rejections {
            switch self {
            case .turned: return Rejections(rawValue: 1)
            case .tilted: return Rejections(rawValue: 2)
            case .eyesClosed: return Rejections(rawValue: 4)
            case .squinting: return Rejections(rawValue: 8)
            case .blurred: return Rejections(rawValue: 16)
            case .irisMismatch: return Rejections(rawValue: 32)
            case .tooSmall: return Rejections(rawValue: 64)
            }
        }
    }

    /// A set of rejections (no allocation); iterate it through `list`.
    public struct Rejections: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public init(_ r: Rejection) { self = r.bit }
        public func contains(_ r: Rejection) -> Bool { contains(r.bit) }
        public mutating func insert(_ r: Rejection) { formUnion(r.bit) }
        /// In `Rejection.allCases` order, the first one (nil when empty).
        public var first: Rejection? {
            switch rawValue.trailingZeroBitCount {
            case 0: return .turned
            case 1: return .tilted
            case 2: return .eyesClosed
            case 3: return .squinting
            case 4: return .blurred
            case 5: return .irisMismatch
            case 6: return .tooSmall
            default: return nil
            }
        }
        /// In `Rejection.allCases` order (allocates).
        public var list: [Rejection] { Rejection.allCases.filter { contains($0) } }
    }

    /// Largest |yaw| and |pitch| of a kept frame (degrees, against the line of sight). The metrics
    /// back-project the pupils onto the head's own frame (`FaceMeasurer`), so a turned head measures
    /// as a frontal one within these limits: rendered heads over yaw ±15°, pitch ±10° (README, issue 24).
    public var maxYawDegrees = 15.0
    public var maxPitchDegrees = 10.0
    /// Sets both limits (reads the yaw limit).
    public var maxAngleDegrees: Double {
        get { maxYawDegrees }
        set { maxYawDegrees = newValue; maxPitchDegrees = newValue }
    }
    /// Smallest lid opening (`EyeContour.lidOpening`) as a fraction of the iris diameter. Below half,
    /// the lids cover most of the ±40° lateral arcs the limbus is fitted on, and the "limbus" edges
    /// are found on the lid margins instead: on the squinting d20 dev clip (opening/iris 0.39–0.47,
    /// p10–p90) such fits measured a PD of 48 mm; the open-eyed clips sit at 0.51–0.87 (d18 p10 –
    /// face1 p90).
    public var minimumIrisVisibleFraction = 0.5
    public var minimumLimbusContrast = 8.0
    public var maximumLimbusResidualPx = 0.8
    public var minimumPupilDistancePx: Float = 36
    /// Largest relative difference between the two iris diameters beyond what the yaw explains
    /// (`yawIrisAsymmetry`). Facing the camera (|yaw| < 5°) at ≥ 250 mm the nearer eye is < 2 %
    /// larger; more means a fit on a lid or a catchlight.
    public var maximumIrisMismatch = 0.06

    /// How much larger the nearer eye's iris looks on a head turned by `yawDegrees` at `distanceMM`:
    /// the eyes are ≈ 64 mm apart, so their depths differ by 64 · sin|yaw| (3.1 % at 15° and 520 mm).
    public static func yawIrisAsymmetry(yawDegrees: Double, distanceMM: Double) -> Double {
        64 * abs(sin(yawDegrees * .pi / 180)) / max(distanceMM, 100)
    }

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

    /// Which way to turn, in the subject's own words, when the head is outside the angle limits (nil
    /// inside them). Signs of `viewAngles`: yaw < 0 is the head turned towards the subject's left
    /// (the nose towards the image right of a non-mirrored camera), pitch > 0 the chin raised.
    public func guidance(yawDegrees yaw: Double, pitchDegrees pitch: Double) -> String? {
        var parts: [String] = []
        if !(abs(yaw) < maxYawDegrees) {
            parts.append(String(format: "head turned %.0f° to your %@ (at most %.0f°): turn it towards your %@",
                                abs(yaw), yaw < 0 ? "left" : "right", maxYawDegrees, yaw < 0 ? "right" : "left"))
        }
        if !(abs(pitch) < maxPitchDegrees) {
            parts.append(String(format: "head tilted %.0f° %@ (at most %.0f°): %@",
                                abs(pitch), pitch > 0 ? "up" : "down", maxPitchDegrees, pitch > 0 ? "lower your chin" : "raise your chin"))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Why the frame is rejected, in `Rejection.allCases` order (empty: accepted). Allocates; the
    /// per-frame path uses `rejections(cameraFromFace:eyes:)`.
    public func check(cameraFromFace: RigidTransform, eyes: [RefinedEye]) -> [Rejection] {
        guard eyes.count == 2 else { return rejections(cameraFromFace: cameraFromFace, eyes: nil).list }
        return rejections(cameraFromFace: cameraFromFace, eyes: EyePair(left: eyes[0], right: eyes[1])).list
    }

    /// Why the frame is rejected (empty: accepted); `eyes` nil means not two eyes.
    public func rejections(cameraFromFace: RigidTransform, eyes: EyePair?) -> Rejections {
        var out: Rejections = []
        let a = Self.viewAngles(cameraFromFace: cameraFromFace)
        if !(abs(a.yaw) < maxYawDegrees) { out.insert(.turned) }
        if !(abs(a.pitch) < maxPitchDegrees) { out.insert(.tilted) }
        guard let eyes else { out.insert(.eyesClosed); return out }
        let l = eyes.left, r = eyes.right
        if !(l.isOpen && l.irisDiameterPx != nil && r.isOpen && r.irisDiameterPx != nil) {
            out.insert(.eyesClosed)
        } else if !((l.irisVisibleFraction ?? 0) >= minimumIrisVisibleFraction && (r.irisVisibleFraction ?? 0) >= minimumIrisVisibleFraction) {
            out.insert(.squinting)
        } else if !(l.limbusContrast >= minimumLimbusContrast && l.limbusResidualPx <= maximumLimbusResidualPx
                    && r.limbusContrast >= minimumLimbusContrast && r.limbusResidualPx <= maximumLimbusResidualPx) {
            out.insert(.blurred)
        } else if let da = l.irisDiameterPx, let db = r.irisDiameterPx,
                  !(abs(da - db) <= (maximumIrisMismatch + Self.yawIrisAsymmetry(yawDegrees: a.yaw, distanceMM: cameraFromFace.translation.length)) * (da + db) / 2) {
            out.insert(.irisMismatch)
        }
        if length(r.pupil - l.pupil) < minimumPupilDistancePx { out.insert(.tooSmall) }
        return out
    }
}
