import FaceDetection
import Imaging

/// One face to learn from: a gray image, its true landmarks and the box the detector gives for it
/// (or, without a detector, its canonical box). Coordinates use the pixel-centre convention.
public struct TrainingFace: Sendable {
    public var name: String
    public var image: GrayImage
    public var landmarks: [SIMD2<Float>]
    public var box: FaceBox

    public init(name: String, image: GrayImage, landmarks: [SIMD2<Float>], box: FaceBox) {
        self.name = name; self.image = image; self.landmarks = landmarks; self.box = box
    }

    /// The same face flipped left-right: image, landmarks (with the index remap `mirror`) and box.
    public func mirrored(mirror: [Int]) -> TrainingFace {
        let w = image.width
        var flipped = GrayImage(width: w, height: image.height)
        image.pixels.withUnsafeBufferPointer { src in
            flipped.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<image.height {
                    let row = y * w
                    for x in 0..<w { dst[row + x] = src[row + w - 1 - x] }
                }
            }
        }
        let lastX = Float(w - 1)
        let pts = (0..<landmarks.count).map { i -> SIMD2<Float> in
            let p = landmarks[mirror[i]]
            return SIMD2(lastX - p.x, p.y)
        }
        var b = box
        b.x = lastX - (box.x + box.width)
        return TrainingFace(name: name + "#mirror", image: flipped, landmarks: pts, box: b)
    }
}
