import FacialMetrics
import Foundation
import Geometry
import Imaging

/// Draws an ISO/IEC 7810 ID-1 card (85.60 × 53.98 mm, corners rounded to 3.18 mm) into a real frame
/// where a tracked face's pose puts it, so the card detector can be measured on real footage whose
/// card corners are known (issue 24 item 3).
///
/// The card lies in the face's x–y plane at the mean face's forehead (or under the nose), optionally
/// tipped about the face's x axis by `tiltDegrees` (a card held away from the eye plane, which the
/// detector must reject). It is rendered by casting each sub-pixel's ray onto the card's plane (4 × 4
/// samples per pixel, so its edges are anti-aliased as a lens would), averaged over the poses of the
/// exposure (motion blur), shaded by a brightness and a linear gradient across it (the scene's light),
/// and blended over the frame. `corners(...)` are the truth: the projections of the corners of the
/// card's straight edges (where the detector's edge lines meet), in the pixel-centre convention of
/// `CameraIntrinsics.project`, image order top-left, top-right, bottom-right, bottom-left.
public struct CardComposite: Sendable {
    public var placement: CardObservation.Placement
    public var tiltDegrees: Double
    /// The card's reflectance (linear 0–1 per channel, before the brightness): a pale blue-grey card.
    public var albedo: SIMD3<Double> = [0.80, 0.85, 0.92]
    public static let cornerRadiusMM = 3.18
    public var samplesPerAxis = 4

    public init(placement: CardObservation.Placement = .forehead, tiltDegrees: Double = 0) {
        self.placement = placement
        self.tiltDegrees = tiltDegrees
    }

    /// The card's centre in the face frame (mm, `MeanFace` frame): the synthetic head's forehead card
    /// (`SyntheticHead.cardCentre`, 14.7 mm in front of the pupils at the inner brows, as
    /// `OcularConstants` assumes), or under the nose tip, 12.7 mm in front of the pupils.
    public var centreInFace: SIMD3<Double> {
        switch placement {
        case .forehead: return SyntheticHead.cardCentre
        case .underNose: return SIMD3(0, 48 + CardObservation.heightMM / 2, -OcularConstants.underNoseCardInFrontOfPupilsMM)
        }
    }

    public func cameraFromCard(cameraFromFace: RigidTransform) -> RigidTransform {
        let tilt = Rotation(axis: SIMD3(1, 0, 0), angle: tiltDegrees * .pi / 180)
        return cameraFromFace * RigidTransform(rotation: tilt, translation: centreInFace)
    }

    /// The four corners of the card's straight edges in the card frame (mm), image order.
    public static let cornersInCard: [SIMD3<Double>] = {
        let w = CardObservation.widthMM / 2, h = CardObservation.heightMM / 2
        return [SIMD3(-w, -h, 0), SIMD3(w, -h, 0), SIMD3(w, h, 0), SIMD3(-w, h, 0)]
    }()

    public static func corners(cameraFromCard: RigidTransform, camera: CameraIntrinsics) -> [SIMD2<Double>] {
        cornersInCard.map { camera.project(cameraFromCard.apply($0)) }
    }

    /// Whether the card lies inside the frame with `margin` pixels to spare (then the detector can see
    /// all four edges) and in front of the camera.
    public static func fullyVisible(cameraFromCard: RigidTransform, camera: CameraIntrinsics, margin: Double = 3) -> Bool {
        guard cornersInCard.allSatisfy({ cameraFromCard.apply($0).z > 10 }) else { return false }
        return corners(cameraFromCard: cameraFromCard, camera: camera).allSatisfy {
            $0.x >= margin && $0.y >= margin && $0.x <= Double(camera.width - 1) - margin && $0.y <= Double(camera.height - 1) - margin
        }
    }

    /// Whether a card-frame point (mm) is on the card (rounded corners included).
    @inline(__always) static func inside(_ u: Double, _ v: Double) -> Bool {
        let w = CardObservation.widthMM / 2, h = CardObservation.heightMM / 2, r = cornerRadiusMM
        let au = abs(u), av = abs(v)
        guard au <= w, av <= h else { return false }
        let du = au - (w - r), dv = av - (h - r)
        return du <= 0 || dv <= 0 || du * du + dv * dv <= r * r
    }

    /// Blends the card into `image` (sRGB bytes) over the exposure's poses (one pose: no motion blur).
    /// `brightness` scales the albedo (1: lit like a white page at full exposure); `gradient` is the
    /// relative change of brightness per card half-width along the card's x and y axes.
    public func draw(into image: inout RGBImage, exposure: [RigidTransform], camera: CameraIntrinsics,
                     brightness: Double, gradient: SIMD2<Double> = .zero) {
        guard !exposure.isEmpty else { return }
        // Pixel box: all corners of all poses, grown by a pixel.
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        for pose in exposure {
            guard Self.cornersInCard.allSatisfy({ pose.apply($0).z > 10 }) else { return }
            for c in Self.corners(cameraFromCard: pose, camera: camera) { lo = pointwiseMin(lo, c); hi = pointwiseMax(hi, c) }
        }
        let x0 = max(0, Int(floor(lo.x)) - 1), x1 = min(image.width - 1, Int(ceil(hi.x)) + 1)
        let y0 = max(0, Int(floor(lo.y)) - 1), y1 = min(image.height - 1, Int(ceil(hi.y)) + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        let planes = exposure.map { pose in (centre: pose.translation, normal: pose.rotation.matrix.c2, toCard: pose.rotation.inverse) }
        let n = samplesPerAxis, total = Double(n * n * exposure.count)
        let w = CardObservation.widthMM / 2, h = CardObservation.heightMM / 2
        for y in y0...y1 {
            for x in x0...x1 {
                var covered = 0.0, shade = 0.0
                for sy in 0..<n {
                    for sx in 0..<n {
                        let p = SIMD2(Double(x) + (Double(sx) + 0.5) / Double(n) - 0.5, Double(y) + (Double(sy) + 0.5) / Double(n) - 0.5)
                        let nn = camera.normalised(pixel: p)
                        let ray = SIMD3(nn.x, nn.y, 1)
                        for plane in planes {
                            let t = plane.normal.dot(plane.centre) / plane.normal.dot(ray)
                            guard t > 0 else { continue }
                            let local = plane.toCard * (ray * t - plane.centre)
                            if Self.inside(local.x, local.y) {
                                covered += 1
                                shade += 1 + gradient.x * local.x / w + gradient.y * local.y / h
                            }
                        }
                    }
                }
                guard covered > 0 else { continue }
                let alpha = covered / total, s = shade / covered * brightness
                let bg = image[x, y]
                func mix(_ b: UInt8, _ a: Double) -> UInt8 {
                    let card = 255 * SRGB.encode(min(1, max(0, a * s)))
                    return UInt8(max(0, min(255, (alpha * card + (1 - alpha) * Double(b)).rounded())))
                }
                image[x, y] = (mix(bg.r, albedo.x), mix(bg.g, albedo.y), mix(bg.b, albedo.z))
            }
        }
    }
}
