import FaceMarkup
import Imaging

/// Both pupils refined on the frame and on its left-right mirror (x → width − 1 − x, the landmarks
/// mirrored with `IBUG68.mirror`), the mirrored eyes mapped back and each eye combined from its two
/// refinements by a rule that does not care which came from which image: the result for a frame's
/// exact mirror is the result for the frame, mirrored, eyes swapped. The iris search and the limbus
/// fit are not mirror-symmetric (ray fans, sampling order, rounding of the crops), and a pupil off by
/// a tenth of a pixel towards the nose in both eyes shrinks the PD: measurement only, with the
/// mirror-averaged landmarks (`MeasurementSession.mirrorAveraged`). Not thread-safe.
final class MirrorAveragedPupils {
    private var mirrored = GrayImage(width: 0, height: 0)
    private var landmarks: [SIMD2<Float>] = []

    func refinePair(_ image: GrayImage, landmarks direct: [SIMD2<Float>], refiner: PupilRefiner) -> EyePair {
        let d = refiner.refinePair(image, landmarks: direct)
        guard direct.count == IBUG68.count else { return d }
        mirrored.setMirrored(of: image)
        let w = Float(image.width - 1)
        IBUG68.mirrored(direct, imageWidth: image.width, into: &landmarks)
        let m = refiner.refinePair(mirrored, landmarks: landmarks)
        // The mirror's image-right eye is the frame's image-left eye.
        return EyePair(left: Self.combine(d.left, Self.back(m.right, width: w)), right: Self.combine(d.right, Self.back(m.left, width: w)))
    }

    private static func back(_ eye: RefinedEye, width w: Float) -> RefinedEye {
        var e = eye
        e.pupil.x = w - e.pupil.x
        return e
    }

    /// One eye from its two refinements, symmetric in them: the mean when both found the limbus; the
    /// one that found it when only one did (a limbus missed in one image is a borderline eye, not a
    /// closed one: the gate still judges the fit found); else the mean of the two contour centroids.
    static func combine(_ a: RefinedEye, _ b: RefinedEye) -> RefinedEye {
        let aLimbus = a.source == .limbus, bLimbus = b.source == .limbus
        if aLimbus != bLimbus { return aLimbus ? a : b }
        var out = a
        out.pupil = 0.5 * (a.pupil + b.pupil)
        out.isOpen = a.isOpen && b.isOpen
        out.aspectRatio = 0.5 * (a.aspectRatio + b.aspectRatio)
        out.lidOpeningPx = 0.5 * (a.lidOpeningPx + b.lidOpeningPx)
        if let da = a.irisDiameterPx, let db = b.irisDiameterPx { out.irisDiameterPx = 0.5 * (da + db) }
        out.limbusContrast = 0.5 * (a.limbusContrast + b.limbusContrast)
        out.limbusResidualPx = 0.5 * (a.limbusResidualPx + b.limbusResidualPx)
        return out
    }
}
