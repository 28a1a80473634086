/// Judges a landmark fit from the cascade's own last-stage features: how face-like the image looks
/// under the fitted shape. Used to choose among several detection-mode starts (`DetectionRefinement`).
///
/// Contract: `fitScore` returns log-odds that `fitted` lies on a face (higher is better; 0 means
/// even odds), is pure, and only makes sense for the cascade whose features it was trained on
/// (callers check the pairing, e.g. `TrackingConfidenceModel.matches(_:)` in FaceTracking, which
/// conforms). Landmarks defines the protocol so the cascade can use a trained judge without
/// depending on the module that trains it.
public protocol FitScorer: Sendable {
    func fitScore(_ fitted: LandmarkCascade.FittedShape) -> Float
    /// Whether this judge was trained on `cascade`'s features (a fitter ignores a judge that was not).
    func judges(_ cascade: LandmarkCascade) -> Bool
}

extension FitScorer {
    /// A judge that does not say what it was trained on is taken to judge any cascade.
    public func judges(_ cascade: LandmarkCascade) -> Bool { true }
}
