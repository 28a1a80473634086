import Foundation

/// Head-pose angles in radians, in the camera frame (x right, y down, z forward):
/// `R = Rz(roll) · Ry(yaw) · Rx(pitch)` — pitch is applied first, about the camera x axis.
///
/// For a face frame that equals the camera frame when the face looks straight into the camera
/// (the `FaceModel` convention), the signs read as:
/// - pitch > 0: the face looks down (forehead towards the camera, chin away);
/// - yaw > 0: the face turns towards the image left (the subject's right; its image-right side comes nearer);
/// - roll > 0: the face tilts clockwise in the image.
/// Extraction is unique for |yaw| < 90°; at ±90° (gimbal lock) roll is reported as 0.
public struct EulerAngles: Sendable, Equatable {
    public var pitch: Double
    public var yaw: Double
    public var roll: Double

    public init(pitch: Double, yaw: Double, roll: Double) {
        self.pitch = pitch; self.yaw = yaw; self.roll = roll
    }

    public init(degreesPitch pitch: Double, yaw: Double, roll: Double) {
        let k = Double.pi / 180
        self.init(pitch: pitch * k, yaw: yaw * k, roll: roll * k)
    }

    /// [pitch, yaw, roll] in degrees.
    public var degrees: SIMD3<Double> { SIMD3(pitch, yaw, roll) * (180 / Double.pi) }

    public init(_ r: Rotation) {
        let m = r.matrix
        let s = max(-1, min(1, -m[2, 0]))
        yaw = asin(s)
        if abs(s) < 1 - 1e-12 {
            pitch = atan2(m[2, 1], m[2, 2])
            roll = atan2(m[1, 0], m[0, 0])
        } else {
            pitch = atan2(-m[1, 2], m[1, 1])
            roll = 0
        }
    }

    public var rotation: Rotation {
        let (cp, sp) = (cos(pitch), sin(pitch))
        let (cy, sy) = (cos(yaw), sin(yaw))
        let (cr, sr) = (cos(roll), sin(roll))
        let rx = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, cp, -sp), SIMD3(0, sp, cp))
        let ry = Matrix3(rows: SIMD3(cy, 0, sy), SIMD3(0, 1, 0), SIMD3(-sy, 0, cy))
        let rz = Matrix3(rows: SIMD3(cr, -sr, 0), SIMD3(sr, cr, 0), SIMD3(0, 0, 1))
        return Rotation(unchecked: rz * ry * rx)
    }
}
