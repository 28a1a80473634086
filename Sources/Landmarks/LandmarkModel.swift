import FaceDetection
import Imaging

/// Places a fixed set of landmarks (68, iBUG 300-W order) on a face.
///
/// Coordinates are image pixels with the centre of the top-left pixel at (0, 0). Implementations are
/// immutable values and safe to share between threads.
public protocol LandmarkModel: Sendable {
    var landmarkCount: Int { get }
    /// Landmarks for the face in `box`, a box in the detector's canonical convention (see `FaceBox`).
    func landmarks(in image: GrayImage, box: FaceBox) -> [SIMD2<Float>]
    /// Tracking mode: landmarks for a face whose shape in the previous frame was `previous`.
    func track(in image: GrayImage, previous: [SIMD2<Float>]) -> [SIMD2<Float>]
    /// The pixels `track(in:previous:)` may read for a face whose previous shape is `previous`, or nil
    /// when it may read anywhere. Lets a caller prepare only that part of a frame (e.g. convert only
    /// it to gray); the region may be larger than the image.
    func trackingReadRegion(previous: [SIMD2<Float>]) -> PixelRect?
    /// A fitter for one video stream; `judge` scores its fits when it was trained for this model
    /// (otherwise it is ignored).
    func makeFitter(judge: (any FitScorer)?) -> any LandmarkFitter
}

extension LandmarkModel {
    /// Unknown: the whole image.
    public func trackingReadRegion(previous: [SIMD2<Float>]) -> PixelRect? { nil }

    /// No scratch memory and no judge: each fit calls the model.
    public func makeFitter(judge: (any FitScorer)?) -> any LandmarkFitter { PlainFitter(model: self) }
}
