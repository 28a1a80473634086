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
}
