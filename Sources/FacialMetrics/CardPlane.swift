import Foundation
import Geometry

/// The plane of a card found in the image, as the card scale uses it: its lean (pitch about the
/// face's x axis) from the corner homography, its yaw and roll from the face, and its distance from
/// the card's width alone, measured along the face's x axis. Camera space: `normal · X = offset` (mm).
///
/// Why not the homography's own pose (`CardDetector.pose`): four corners of a card ≈ 190 px wide fix
/// its size well and its orientation poorly, and the homography trades one for the other. On the
/// rendered heads of `TurnedHeadTests`, corners within 0.5 px of the truth gave a normal 3.1° off
/// and the card 4.1 mm too near (yaw −5°, pitch −10°: far PD −0.71 mm with the rendered face pose).
/// Each part here comes from where it is best known:
/// - yaw and roll from the face: the pupils are back-projected onto a plane with the face's
///   orientation, so a yaw error then stretches the card's width and the pupils' separation alike,
///   and cancels (the card's own yaw does not move the pupils' plane: the ray through the pupils
///   meets the card plane straight below its centre);
/// - the lean from the corners: the ray through the pupils meets the card plane ≈ 53 mm below the
///   card's centre, so each degree of lean moves the pupils' plane ≈ 0.9 mm. The tracker's pitch
///   reads 1–7° off on the rendered head (its nose and eye landmarks sit 2–5 px apart from where
///   they project), the homography's ≈ 1°; a card's lean follows the forehead's slope anyway;
/// - the distance from the width only: the width lies along the PD, so a yaw error cancels as
///   above, and tipping the plane about its x axis leaves the mean of the top and bottom widths
///   unchanged to first order, where the card's height would bring the lean's error in.
public struct CardPlane: Sendable {
    public var normal: SIMD3<Double>
    public var offset: Double

    public init(normal: SIMD3<Double>, offset: Double) {
        self.normal = normal
        self.offset = offset
    }

    /// The homography pose's own plane.
    public init(cameraFromCard: RigidTransform) {
        normal = cameraFromCard.rotation.matrix.c2
        offset = normal.dot(cameraFromCard.translation)
    }

    /// Nil when the corners are not four, or the plane would be edge-on or behind the camera.
    public init?(card: CardObservation, cameraFromFace: RigidTransform, camera: CameraIntrinsics) {
        guard card.corners.count == 4 else { return nil }
        let face = cameraFromFace.rotation.matrix
        // The homography's normal in the face frame; its lean about the face's x axis only.
        let nf = cameraFromFace.rotation.inverse.matrix * card.cameraFromCard.rotation.matrix.c2
        let lean = atan2(-nf.y, nf.z)
        let n = face * SIMD3(0, -sin(lean), cos(lean))
        let xAxis = face.c0
        // Corners back-projected onto n · X = 1: the card's width there, then scale to 85.60 mm.
        var p = [SIMD3<Double>](repeating: .zero, count: 4)
        for k in 0..<4 {
            let u = camera.normalised(pixel: card.corners[k])
            let ray = SIMD3(u.x, u.y, 1)
            let den = n.dot(ray)
            guard den > 1e-6 else { return nil }
            p[k] = ray / den
        }
        let width = ((p[1] - p[0]).dot(xAxis) + (p[2] - p[3]).dot(xAxis)) / 2
        guard width > 0, width.isFinite else { return nil }
        normal = n
        offset = CardObservation.widthMM / width
    }
}
