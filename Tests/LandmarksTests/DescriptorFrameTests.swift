import FaceDetection
import Imaging
import Landmarks
import Testing

/// Descriptors are computed in the face's normalised frame, so turning the image and the shape by
/// 90° (an exact pixel permutation) must leave the features unchanged.
@Suite struct DescriptorFrameTests {
    @Test func featuresAreInvariantToA90DegreeTurn() {
        let cascade = randomCascade(stages: 1)
        let image = texturedImage(width: 160, height: 160)
        var turned = GrayImage(width: 160, height: 160)
        // (x, y) -> (159 - y, x): a quarter turn about the image centre.
        for y in 0..<160 { for x in 0..<160 { turned[159 - y, x] = image[x, y] } }
        let shape = cascade.meanShape.map { $0 * 0.9 + SIMD2<Float>(80, 80) }
        let turnedShape = shape.map { SIMD2<Float>(159 - $0.y, $0.x) }
        var ws = LandmarkCascade.Workspace(cascade: cascade)
        let crop = cascade.makeCrop(image: image, around: shape)
        ws.extract(cascade: cascade, crop: crop, shape: shape, stride: 1.5)
        let a = ws.features
        // The crop is axis-aligned and square about the shape's box, so it turns with the image.
        let turnedCrop = cascade.makeCrop(image: turned, around: turnedShape)
        ws.extract(cascade: cascade, crop: turnedCrop, shape: turnedShape, stride: 1.5)
        let b = ws.features
        var maxDiff: Float = 0
        for i in 0..<a.count { maxDiff = max(maxDiff, abs(a[i] - b[i])) }
        #expect(maxDiff < 0.02, "features changed by \(maxDiff) under a quarter turn")
        #expect(a.reduce(0, +) > 1, "features are all zero")
    }
}
