import FaceDetection
import Foundation
import Imaging
import Landmarks

/// Shared data lives beside the repository (`<repo>/../shared`); tests that need it skip without it.
enum SharedData {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let faces = repo.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path
    static var available: Bool { FileManager.default.fileExists(atPath: faces + "/index.csv") }
    static let bundledModel = repo.appendingPathComponent("Models/landmarks.lmrk").path
}

/// A deterministic textured test image (smooth blobs plus stripes) so descriptors are not flat.
func texturedImage(width: Int, height: Int) -> GrayImage {
    var img = GrayImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let fx = Float(x), fy = Float(y)
            let v = 128 + 60 * sin(fx * 0.21 + fy * 0.07) + 40 * cos(fy * 0.17 - fx * 0.05) + 20 * sin((fx + fy) * 0.5)
            img[x, y] = UInt8(max(0, min(255, v)))
        }
    }
    return img
}

/// A cascade with random weights over a simple 68-point mean shape (for format and geometry tests).
func randomCascade(stages: Int = 2, cells: Int = 2, seed: UInt64 = 3, shapeFeatureScale: Float = 0) -> LandmarkCascade {
    var state = seed
    func next() -> Float { state = state &* 6364136223846793005 &+ 1442695040888963407; return Float(state >> 40) / Float(1 << 24) - 0.5 }
    let mean = (0..<68).map { i -> SIMD2<Float> in
        let a = Float(i) / 68 * 2 * Float.pi
        return SIMD2(40 * cos(a), 45 * sin(a) * (i % 2 == 0 ? 1 : 0.6))
    }
    let box = mean.map { $0 / 96 }
    let spec = DescriptorSpec(cells: cells, cellSamples: 4, bins: 8)
    let f = 68 * spec.length + (shapeFeatureScale > 0 ? 136 : 0) + 1
    let st = (0..<stages).map { k -> CascadeStage in
        let rank = 8 + k
        let w = (0..<(f * rank)).map { _ in next() * 0.02 }
        let b = (0..<(rank * 136)).map { _ in next() * 0.5 }
        return CascadeStage(stride: 2 - Float(k) * 0.5, featureCount: f, rank: rank, weights: w, basis: b)
    }
    return LandmarkCascade(meanShape: mean, boxShape: box, descriptor: spec, referenceSide: 96, stages: st, shapeFeatureScale: shapeFeatureScale)
}
