import FaceDetection
import Foundation
import Imaging
import JPEGCodec
import Landmarks
import Testing

/// Faces that fill the photo or are cut by its edge (a selfie at arm's length, a tight portrait):
/// the plain detector finds no window for them, the photo detector's padded pyramid does.
struct PhotoFacesTests {
    static let models = SharedData.repo.appendingPathComponent("Models")

    /// The demo portrait, its face, and a tight upscaled crop of it with the face's points mapped in.
    static func tightPortrait(scale: Float, shift: SIMD2<Float>) throws -> (crop: GrayImage, truth: [SIMD2<Float>], interOcular: Float) {
        let bytes = [UInt8](try Data(contentsOf: models.appendingPathComponent("demo/astronaut.jpg")))
        let photo = try TurboJPEGDecoder().decodeGray(bytes)
        let cascade = try LandmarkCascade(contentsOf: SharedData.bundledModel)
        let detector = PhotoFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: models.appendingPathComponent("face-detector.fdet").path))
        let reference = try #require(cascade.faces(in: photo, detector: detector).first).landmarks
        let box = FaceBox.canonical(landmarks: reference)
        // The face's box grown by 10 %, moved by `shift` of its side, then enlarged `scale` times.
        let side = box.width * 1.1
        let origin = box.centre - side / 2 + shift * side
        let out = Int(side * scale)
        var crop = GrayImage(width: out, height: out)
        for y in 0 ..< out {
            for x in 0 ..< out {
                let p = origin + (SIMD2(Float(x), Float(y)) + 0.5) / scale - 0.5
                let xi = Int(p.x.rounded()), yi = Int(p.y.rounded())
                if xi >= 0, yi >= 0, xi < photo.width, yi < photo.height { crop[x, y] = photo[xi, yi] }
            }
        }
        let truth = reference.map { ($0 - origin + 0.5) * scale - 0.5 }
        return (crop, truth, Self.distance(truth[36], truth[45]))
    }

    static func distance(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float { ((a - b) * (a - b)).sum().squareRoot() }

    /// Mean point error, in inter-ocular distances, of the best face found near the truth (nil: none).
    static func bestError(_ faces: [[SIMD2<Float>]], truth: [SIMD2<Float>], interOcular: Float) -> Float? {
        faces.map { shape in zip(shape, truth).map { Self.distance($0, $1) }.reduce(0, +) / Float(truth.count) / interOcular }.min()
    }

    @Test(arguments: [SIMD2<Float>(0, 0), SIMD2<Float>(0.2, 0), SIMD2<Float>(-0.15, 0.15)])
    func faceFillingOrCutByTheFrameIsFound(shift: SIMD2<Float>) throws {
        let (crop, truth, io) = try Self.tightPortrait(scale: 10, shift: shift)
        let cascade = try LandmarkCascade(contentsOf: SharedData.bundledModel)
        let model = try HOGFaceDetectorModel(contentsOfFile: Self.models.appendingPathComponent("face-detector.fdet").path)
        let photo = PhotoFaceDetector(model: model)
        let found = Self.bestError(cascade.faces(in: crop, detector: photo).map(\.landmarks), truth: truth, interOcular: io)
        #expect(found != nil && found! < 0.08, "photo detector on a \(crop.width) px tight crop shifted \(shift): error \(String(describing: found))")
        // The plain detector (no border) has no window for a face cut by the edge: the failure the padding fixes.
        guard shift != .zero else { return }
        let plain = HOGFaceDetector(model: model)
        let before = Self.bestError(plain.detect(in: crop).map { cascade.landmarks(in: crop, box: $0) }, truth: truth, interOcular: io)
        #expect(before == nil || before! > 0.08, "the plain detector already finds this face: the test would not show the fix")
    }

    @Test func smallestFaceGrowsOnlyPastTheBudget() throws {
        let model = try HOGFaceDetectorModel(contentsOfFile: Self.models.appendingPathComponent("face-detector.fdet").path)
        let detector = PhotoFaceDetector(model: model)
        #expect(detector.smallestFaceSide(width: 640, height: 480) == Float(model.window.faceSidePixels))
        // The first level scanned holds at most the budget, and not less than a level step below it.
        #expect(detector.smallestFaceSide(width: 2000, height: 1500) == 64)
        for (w, h) in [(4000, 3000), (4300, 3200), (6000, 4000), (3000, 2500)] {
            let side = detector.smallestFaceSide(width: w, height: h)
            let firstLevelPixels = Double(w * h) * pow(Double(64 / side), 2)
            #expect(firstLevelPixels <= Double(detector.pixelBudget) && firstLevelPixels > Double(detector.pixelBudget) / 2.0.squareRoot())
        }
        // 12 Mpixel against a 4 Mpixel budget: log2(3)/2 octaves, rounded up to whole levels: one octave.
        detector.pixelBudget = 4_000_000
        let twelve = detector.smallestFaceSide(width: 4000, height: 3000)
        #expect(twelve > 127 && twelve < 130)
    }
}
