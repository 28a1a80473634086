import Landmarks

/// The tracking-loss classifier also judges detection-mode fits: `LandmarkCascade.detectionFit` keeps
/// the start whose fit it finds most face-like (`DetectionRefinement`). Valid only for the cascade the
/// model `matches(_:)`.
extension TrackingConfidenceModel: FitScorer {
    public func fitScore(_ fitted: LandmarkCascade.FittedShape) -> Float { score(fitted.features) }
    public func judges(_ cascade: LandmarkCascade) -> Bool { matches(cascade) }
}
