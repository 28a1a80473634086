/// Published adult averages (millimetres) that give the mean face its metric scale and place the
/// points the 68-point markup does not cover. Sex-averaged and rounded; the sources report
/// standard deviations of 2–4 mm for the eye widths and ≈ 3.5 mm for the interpupillary distance.
public enum Anthropometry {
    /// Biocular width ex–ex (outer eye corners). Farkas, "Anthropometry of the Head and Face" (1994),
    /// North American Caucasian adults: ≈ 88 (women) – 91 (men) mm.
    public static let biocularWidthMM = 89.0
    /// Intercanthal width en–en (inner eye corners). Farkas (1994): ≈ 32 (women) – 33 (men) mm.
    public static let intercanthalWidthMM = 32.0
    /// Interpupillary distance. Dodgson, "Variation and extrema of human interpupillary distance"
    /// (SPIE 2004): adult mean ≈ 63 mm.
    public static let interpupillaryDistanceMM = 63.0
    /// How far the pupil (entrance pupil) sits in front of the mean depth of the eyelid margins.
    public static let pupilForwardOfLidsMM = 1.5
    /// Head breadth where glasses temples pass, level with the eyes behind the orbital rim:
    /// between bizygomatic breadth zy–zy ≈ 130–140 mm and bitragion breadth t–t ≈ 140–150 mm (Farkas 1994).
    public static let templeBreadthMM = 140.0
    /// Temple point depth behind the lateral canthus (just behind the lateral orbital rim).
    public static let templeBehindCanthusMM = 15.0
    /// Breadth across the tops of the ear attachments (otobasion superius), close to bitragion breadth ≈ 145 mm.
    public static let earBreadthMM = 145.0
    /// Depth of the ear top behind the lateral canthus. Approximate: the "length to bend" of adult glasses
    /// temples (hinge, at about canthus depth, to the bend resting on the ear) is ≈ 90–100 mm.
    public static let earBehindCanthusMM = 90.0
    /// Height of the ear top above the eye corners (the Frankfort plane through porion lies ≈ 10 mm below
    /// the canthi; otobasion superius is ≈ 15 mm above porion).
    public static let earAboveCanthusMM = 5.0

    // Head orientation: the face frame's pitch 0 is the Frankfort horizontal (porion–orbitale) level.

    /// Holdaway's soft-tissue facial angle, between the Frankfort horizontal and the line from soft-tissue
    /// nasion to soft-tissue pogonion, measured behind the line: 90–92° in balanced adult profiles
    /// (Holdaway, "A soft-tissue cephalometric analysis", Am J Orthod 1983; the same as saying the chin's
    /// most prominent point touches the vertical through nasion when the Frankfort plane is level).
    public static let softTissueFacialAngleDegrees = 91.0
    /// How far soft-tissue menton (the lowest chin point, what the 68-point markup's point 8 marks on a
    /// frontal view) lies behind soft-tissue pogonion (the most prominent chin point), and below it.
    /// Approximate values of a typical adult soft-tissue chin profile, not a published mean.
    public static let mentonBehindPogonionMM = 10.0
    public static let mentonBelowPogonionMM = 10.0
}
