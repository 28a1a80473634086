import FaceDetection
import Imaging

/// One video stream's fitting with a landmark model: it keeps its scratch memory from fit to fit
/// (one thread at a time) and, with a fit judge trained for the model, scores each fit. The tracker
/// asks its `LandmarkModel` for one (`makeFitter(judge:)`) instead of knowing the model's type.
public protocol LandmarkFitter: AnyObject {
    /// Whether a judge scores the fits (it was given one trained for this model).
    var isJudged: Bool { get }
    /// Tracking mode: the face whose shape was `previous` in the last frame. The shape may share the
    /// fitter's storage until the next fit.
    func track(in image: LumaFrame, previous: [SIMD2<Float>]) -> (shape: [SIMD2<Float>], score: Float?)
    /// Detection mode: the face in a detector's `box`.
    func fit(in image: GrayImage, box: FaceBox) -> (shape: [SIMD2<Float>], score: Float?)
}

/// The fitter of a model without scratch memory or judge: each fit calls the model, on gray pixels.
final class PlainFitter: LandmarkFitter {
    let model: any LandmarkModel

    init(model: any LandmarkModel) { self.model = model }

    var isJudged: Bool { false }

    func track(in image: LumaFrame, previous: [SIMD2<Float>]) -> (shape: [SIMD2<Float>], score: Float?) {
        (model.track(in: image.grayImage, previous: previous), nil)
    }

    func fit(in image: GrayImage, box: FaceBox) -> (shape: [SIMD2<Float>], score: Float?) {
        (model.landmarks(in: image, box: box), nil)
    }
}

/// The cascade's fitter: every fit runs in one `Workspace`, so a tracked face costs no heap
/// allocation; with a judge, detection fits are refined (several starts, the best judged wins).
final class CascadeFitter: LandmarkFitter {
    let cascade: LandmarkCascade
    let judge: (any FitScorer)?
    var workspace: LandmarkCascade.Workspace

    init(cascade: LandmarkCascade, judge: (any FitScorer)?) {
        var cascade = cascade
        if let judge {
            // Detection frames refine the start from the box and let the judge pick among starts.
            cascade.detectionRefinement = DetectionRefinement(scorer: judge)
        }
        self.cascade = cascade
        self.judge = judge
        workspace = LandmarkCascade.Workspace(cascade: cascade)
    }

    var isJudged: Bool { judge != nil }

    func track(in image: LumaFrame, previous: [SIMD2<Float>]) -> (shape: [SIMD2<Float>], score: Float?) {
        cascade.track(in: image, previous: previous, workspace: &workspace)
        return (workspace.shape, judge?.fitScore(LandmarkCascade.FittedShape(landmarks: workspace.shape, features: workspace.features)))
    }

    func fit(in image: GrayImage, box: FaceBox) -> (shape: [SIMD2<Float>], score: Float?) {
        let fitted = cascade.detectionFit(in: image, box: box, workspace: &workspace).fitted
        return (fitted.landmarks, judge?.fitScore(fitted))
    }
}

extension LandmarkCascade {
    /// The cascade's fitter; `judge` is used only when it `judges(self)`.
    public func makeFitter(judge: (any FitScorer)?) -> any LandmarkFitter {
        CascadeFitter(cascade: self, judge: judge.flatMap { $0.judges(self) ? $0 : nil })
    }
}
