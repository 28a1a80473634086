/// A camera's horizontal field of view estimated from a face seen on several frames
/// (`FieldOfViewEstimator`), with the range the evidence allows and what the evidence was.
///
/// Degrees, horizontal, for the image width the observations were made at (principal point at the
/// image centre, square pixels, no distortion).
public struct FieldOfViewEstimate: Sendable, Equatable {
    /// Where the value comes from.
    public enum Basis: String, Sendable, Equatable {
        /// The perspective the mean face needs to explain the landmarks (the reprojection-cost minimum):
        /// the interval is where the cost is not significantly worse, paired over frames (≈ 95 %).
        case perspective
        /// The face size: the field of view that puts the face at the typical viewing distance
        /// (`FieldOfViewEstimator.typicalDistanceMM`); the interval spans the plausible distances.
        case faceSize = "face size"
    }

    public var horizontalFOVDegrees: Double
    public var lowerDegrees: Double
    public var upperDegrees: Double
    public var basis: Basis
    /// Observations (frames or photos) the estimate was made from.
    public var frames: Int
    /// The perspective fit whatever the basis: its minimum and interval (degrees), and whether it was
    /// conclusive (an interior minimum, a narrow interval, a plausible face distance).
    public var perspectiveDegrees: Double
    public var perspectiveLowerDegrees: Double
    public var perspectiveUpperDegrees: Double
    public var perspectiveIsConclusive: Bool
    /// Median distance of the face (camera to the point between the pupils) at the chosen field of view, mm.
    public var medianDistanceMM: Double

    /// One line for a log: "field of view 25° estimated from the face size in 30 frames (…)".
    public var summary: String {
        func d(_ v: Double) -> String { String(Int(v.rounded())) }
        switch basis {
        case .perspective:
            return "field of view \(d(horizontalFOVDegrees))° estimated from the perspective of the face in \(frames) frames (95 % \(d(lowerDegrees))–\(d(upperDegrees))°, face \(d(medianDistanceMM / 10)) cm away)"
        case .faceSize:
            return "field of view \(d(horizontalFOVDegrees))° estimated from the face size in \(frames) frames (face taken to be \(d(FieldOfViewEstimator.typicalDistanceMM / 10)) cm away; "
                + "\(d(FieldOfViewEstimator.plausibleDistanceMM.lowerBound / 10))–\(d(FieldOfViewEstimator.plausibleDistanceMM.upperBound / 10)) cm gives \(d(lowerDegrees))–\(d(upperDegrees))°); "
                + "the face's perspective was inconclusive (" + (perspectiveUpperDegrees - perspectiveLowerDegrees < 0.5
                    ? "its cost falls all the way to \(d(perspectiveDegrees))°, the end of the search)"
                    : "\(d(perspectiveLowerDegrees))–\(d(perspectiveUpperDegrees))°)")
        }
    }
}
