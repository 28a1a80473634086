import FaceDetection
import FaceModel
import Foundation
import Imaging
import JPEGCodec
import Landmarks
import MetricsEvaluation

let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The bundled models and the portrait, loaded once.
enum Fixtures {
    static let face: MeanFace? = try? MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    nonisolated(unsafe) static let detector: HOGFaceDetector? = (try? HOGFaceDetectorModel(contentsOfFile: repoRoot.appendingPathComponent("Models/face-detector.fdet").path)).map { HOGFaceDetector(model: $0) }
    nonisolated(unsafe) static let cascade: LandmarkCascade? = try? LandmarkCascade(contentsOf: repoRoot.appendingPathComponent("Models/landmarks.lmrk").path)
    static let photo: RGBImage? = {
        guard let data = FileManager.default.contents(atPath: repoRoot.appendingPathComponent("Models/demo/astronaut.jpg").path) else { return nil }
        return try? TurboJPEGDecoder().decodeRGB([UInt8](data), scale: .full)
    }()
    static var available: Bool { face != nil && detector != nil && cascade != nil && photo != nil }

    static func landmarks(_ image: GrayImage) -> [SIMD2<Float>]? {
        guard let detector, let cascade, let box = detector.detect(in: image).max(by: { $0.width < $1.width }) else { return nil }
        return cascade.landmarks(in: image, box: box)
    }

    nonisolated(unsafe) static var cachedHead: SyntheticHead?
    static func head() -> SyntheticHead? {
        if let cachedHead { return cachedHead }
        guard let face, let photo, let pl = landmarks(GrayImage(luma: photo)) else { return nil }
        cachedHead = SyntheticHead(face: face, photo: photo, photoLandmarks: pl)
        return cachedHead
    }
}
