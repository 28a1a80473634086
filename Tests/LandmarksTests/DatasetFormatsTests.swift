import FaceData
import Foundation
import Imaging
import Inputs
import LandmarkTraining
import Testing

/// Annotated faces are read whatever their image format (the original 300-W sets mix JPEG and PNG).
struct DatasetFormatsTests {
    @Test func aPGMAndItsPointsLoad() throws {
        let dir = NSTemporaryDirectory() + "dataset-formats-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var image = GrayImage(width: 40, height: 30)
        for y in 0 ..< 30 { for x in 0 ..< 40 { image[x, y] = UInt8(x * 6) } }
        try Data(NetPBM.encode(image)).write(to: URL(fileURLWithPath: dir + "/face_1.pgm"))
        let points = (0 ..< 68).map { "\(Double($0 % 40)) \(Double($0 % 30))" }.joined(separator: "\n")
        try Data("version: 1\nn_points:  68\n{\n\(points)\n}\n".utf8).write(to: URL(fileURLWithPath: dir + "/face_1.pts"))
        let loaded = try TrainingSet.load(directories: [dir], split: .all, decoder: PhotoDecoder())
        #expect(loaded.failures.isEmpty)
        #expect(loaded.faces.count == 1 && loaded.faces[0].image == image && loaded.faces[0].landmarks[5] == SIMD2(5, 5))
    }
}
