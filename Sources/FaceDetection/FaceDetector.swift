import Imaging

/// Finds faces in a gray image. Implementations return canonical boxes (see `FaceBox`) after
/// non-maximum suppression, highest score first.
///
/// Not required to be thread-safe; use one detector per thread.
public protocol FaceDetector: AnyObject {
    func detect(in image: GrayImage) -> [FaceBox]
}
