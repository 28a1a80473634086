/// One eye after refinement, in image pixels (pixel-centre convention).
///
/// `pupil` is the centre of the fitted limbus circle when the iris was found (the pupil sits at the
/// iris centre to within a fraction of a millimetre), else the contour centroid. `irisDiameterPx` is the horizontal visible iris diameter (nil without a limbus fit).
/// `isOpen` is false for a closed or unmeasurable eye (eye aspect ratio below the blink threshold, or
/// no iris boundary on both sides): such eyes must not be measured.
public struct RefinedEye: Sendable {
    /// `held`: not measured this frame (a blink, a limbus fit that disagrees with the person's iris
    /// size); the last trusted pupil position in the eye's frame, carried by the eye corners
    /// (`PupilContinuity`). Such an eye is never measured (`isOpen` false).
    public enum Source: String, Sendable { case limbus, contour, held }
    public var pupil: SIMD2<Float>
    public var source: Source
    public var irisDiameterPx: Double?
    public var isOpen: Bool
    public var aspectRatio: Float
    /// Mean dark-to-bright step across the limbus (grey levels per pixel): a sharpness and contrast cue.
    public var limbusContrast: Double
    public var limbusResidualPx: Double
    /// Mean lid opening (pixels, `EyeContour.lidOpening`).
    public var lidOpeningPx: Float

    /// Lid opening over iris diameter: how much of the iris's height shows between the lids (nil
    /// without an iris).
    public var irisVisibleFraction: Double? { irisDiameterPx.map { $0 > 0 ? Double(lidOpeningPx) / $0 : 0 } }

    public init(pupil: SIMD2<Float>, source: Source, irisDiameterPx: Double?, isOpen: Bool, aspectRatio: Float,
                limbusContrast: Double, limbusResidualPx: Double, lidOpeningPx: Float = .infinity) {
        self.pupil = pupil
        self.source = source
        self.irisDiameterPx = irisDiameterPx
        self.isOpen = isOpen
        self.aspectRatio = aspectRatio
        self.limbusContrast = limbusContrast
        self.limbusResidualPx = limbusResidualPx
        self.lidOpeningPx = lidOpeningPx
    }
}

/// Both refined eyes of one face: `left` is the image-left eye (landmarks 36–41, the subject's
/// right), `right` the image-right eye. Stored inline, so it costs no allocation per frame.
public struct EyePair: Sendable {
    public var left: RefinedEye
    public var right: RefinedEye

    public init(left: RefinedEye, right: RefinedEye) {
        self.left = left
        self.right = right
    }

    /// Image-left first (allocates).
    public var array: [RefinedEye] { [left, right] }
}
