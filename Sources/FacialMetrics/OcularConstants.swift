/// Published adult constants (millimetres) that turn pixels into millimetres and near PD into far PD,
/// with the population spreads that bound how well a single person can be measured.
public enum OcularConstants {
    /// Horizontal visible iris diameter (white-to-white corneal diameter): 11.71 ± 0.42 mm (mean ± SD)
    /// in 599 healthy adults, Rüfer, Schröder & Erb, "White-to-white corneal diameter: normal values in
    /// healthy humans obtained with the Orbscan II topography system", Cornea 24(3), 2005. The issue's
    /// 11.7 mm and ≈ 0.4 mm SD.
    public static let irisDiameterMM = 11.7
    public static let irisDiameterSDMM = 0.4
    /// Centre of rotation of the eye behind the corneal apex: 13.5 mm (Fry & Hill, "The center of
    /// rotation of the eye", Am. J. Optom. 1962; the value opticians use for the 27 mm from the
    /// spectacle plane with a 13.5 mm vertex distance).
    public static let rotationCentreBehindCorneaMM = 13.5
    /// Entrance pupil behind the corneal apex: 3.05 mm (Gullstrand–Le Grand schematic eye).
    public static let entrancePupilBehindCorneaMM = 3.05
    /// Entrance pupil to the centre of rotation: what a converging eye swings the pupil on.
    public static var pupilToRotationCentreMM: Double { rotationCentreBehindCorneaMM - entrancePupilBehindCorneaMM }
    /// Relative SD of overall head size (biocular width ex–ex ≈ 89 ± 3.6 mm, Farkas 1994): the scale
    /// error of a metric pose fitted with the mean face, i.e. of the `camera` method.
    public static let headSizeRelativeSD = 0.04
    /// Depth of the forehead card plane in front of the pupils: the mean face's inner brows
    /// (landmarks 21, 22) sit 14.7 mm in front of the pupil plane; a card held flat on the forehead
    /// touches there. Individual variation (brow ridge, card pressed at an angle) taken as ± 4 mm SD.
    public static let foreheadCardInFrontOfPupilsMM = 14.7
    public static let underNoseCardInFrontOfPupilsMM = 12.7
    public static let cardPlaneDepthSDMM = 4.0
}
