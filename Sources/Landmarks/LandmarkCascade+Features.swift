import FaceDetection
import Imaging

/// The cascade's own patch descriptors at the end of a fit, for judging the fit (e.g. a linear
/// "is this still a face" classifier, as in the tracking-loss model of `FaceTracking`).
///
/// `FittedShape.features` is the feature vector the *last* stage read (every landmark's descriptor at
/// the last stage's stride, then a constant 1; `featureCount` floats), i.e. at the shape entering the
/// last stage, which the last stage moves by well under 1 % of the face. Reusing it costs nothing
/// extra, unlike a fresh extraction at the final shape.
extension LandmarkCascade {
    public struct FittedShape: Sendable {
        /// The 68 landmarks in image pixels (pixel-centre convention), as `fit` returns them.
        public var landmarks: [SIMD2<Float>]
        /// The last stage's feature vector (`featureCount` floats).
        public var features: [Float]
    }

    /// The stride (reference units per grid sample) at which `FittedShape.features` is read.
    public var lastStageStride: Float { stages.last?.stride ?? 1 }

    /// `fit(image:initial:)` that also returns the last stage's features.
    public func fitWithFeatures(image: GrayImage, initial: [SIMD2<Float>]) -> FittedShape {
        var workspace = Workspace(cascade: self)
        workspace.fit(self, image: image, initial: initial)
        return workspace.fitted
    }

    /// `landmarks(in:box:)` (detection mode, refined) with the last stage's features.
    public func landmarksWithFeatures(in image: GrayImage, box: FaceBox) -> FittedShape {
        detectionFit(in: image, box: box).fitted
    }

    /// `track(in:previous:)` with the last stage's features.
    public func trackWithFeatures(in image: GrayImage, previous: [SIMD2<Float>]) -> FittedShape {
        var workspace = Workspace(cascade: self)
        track(in: image, previous: previous, workspace: &workspace)
        return workspace.fitted
    }
}

extension LandmarkCascade.Workspace {
    /// The last fit's landmarks and features as a value (sharing the workspace's buffers until the
    /// next fit writes them, which then copies them once).
    public var fitted: LandmarkCascade.FittedShape { LandmarkCascade.FittedShape(landmarks: shape, features: features) }
}
