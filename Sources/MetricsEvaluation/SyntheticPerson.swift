import FaceData

/// One adult drawn from the population the scale methods' bands assume (mm), for the coverage test
/// of issue 24: each quantity a method cannot see is drawn with the spread its band claims, so a band
/// that holds must contain the truth in ≈ 95 % of people.
///
/// - `irisDiameter`: 11.7 ± 0.4 mm (Rüfer et al. 2005, `OcularConstants.irisDiameterSDMM`): the iris
///   method assumes the mean.
/// - `faceScale`: the whole face against the mean face, 1 ± 0.04 (Farkas 1994, ex–ex 89 ± 3.6 mm,
///   `OcularConstants.headSizeRelativeSD`): the camera method assumes 1.
/// - `farPD`: 63 ± 3.5 mm overall, correlated with the face's size (63 · faceScale plus an
///   independent 2.4 mm SD, so the total SD is 3.5 mm): a larger face has eyes further apart.
/// - `cardStandOffDeltaMM`: how much further in front of the pupils the forehead card sits than the
///   scaled mean face puts it, 0 ± 4 mm (`OcularConstants.cardPlaneDepthSDMM`, brow ridges and how
///   the card is held): the card method assumes 0.
public struct SyntheticPerson: Sendable, Equatable {
    public var farPD: Double
    public var irisDiameter: Double
    public var faceScale: Double
    public var cardStandOffDeltaMM: Double

    public static let meanPD = 63.0
    public static let pdSD = 3.5
    public static let irisMean = 11.7
    public static let irisSD = 0.4
    public static let faceScaleSD = 0.04
    public static let cardStandOffSD = 4.0

    /// Draws one person; a draw beyond 3 SD is redrawn (no adult has a 75 mm PD on a 0.9 face).
    public static func draw(_ rng: inout SplitMix64) -> SyntheticPerson {
        func normal(_ mean: Double, _ sd: Double) -> Double {
            while true {
                let z = rng.gaussian()
                if abs(z) <= 3 { return mean + sd * z }
            }
        }
        let scale = normal(1, faceScaleSD)
        let sizeSD = meanPD * faceScaleSD
        let pd = meanPD * scale + normal(0, (pdSD * pdSD - sizeSD * sizeSD).squareRoot())
        return SyntheticPerson(farPD: pd, irisDiameter: normal(irisMean, irisSD), faceScale: scale,
                               cardStandOffDeltaMM: normal(0, cardStandOffSD))
    }
}
