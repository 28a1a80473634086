import FaceDetection
import FaceModel
import FaceTracking
import Foundation
import Landmarks
import ModelFormat
import Testing

/// Issue 25's forged model files, all with a correct checksum: tensor shapes whose product
/// overflows or exceeds the file, absurd values, and a mean face at 1e30.
struct HostileModelFileTests {
    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "accepted" } catch { return "\(error)" }
    }

    /// `archive` serialised with the dimensions of its first tensor replaced by `dims` (same rank),
    /// checksum recomputed.
    static func forged(_ archive: ModelArchive, dims: [UInt32]) -> [UInt8] {
        var b = archive.serialized()
        let fields = FuzzSeeds.archiveFields(b)
        let rank = fields[3]  // metadata count, tensor count, encoding, rank, then the dimensions
        precondition(Int(b[rank]) == dims.count)
        for (k, d) in dims.enumerated() { Mutations.write(d, at: rank + 1 + 4 * k, bigEndian: false, into: &b) }
        return FuzzSeeds.resealed(b)
    }

    static let kinds: [(ModelArchive, @Sendable ([UInt8]) throws -> Void)] = [
        (ModelFileFuzzTests.landmarks, { _ = try LandmarkCascade(bytes: $0) }),
        (ModelFileFuzzTests.detector, { _ = try HOGFaceDetectorModel(bytes: $0) }),
        (ModelFileFuzzTests.confidence, { _ = try TrackingConfidenceModel(bytes: $0) }),
    ]

    @Test("tensor dimensions whose product overflows are refused, for all three kinds")
    func overflowingShape() {
        for (archive, load) in Self.kinds {
            let rank = archive.tensors[archive.tensors.keys.sorted()[0]]!.shape.count
            let dims = [UInt32](repeating: 0xFFFF_FFFF, count: max(rank, 1))
            let message = Self.message { try load(Self.forged(archive, dims: rank >= 2 ? dims : [0xFFFF_FFFF])) }
            #expect(message.contains(rank >= 2 ? "overflows when multiplied out" : "more than the"), "\(archive.kind): \(message)")
        }
    }

    @Test("a tensor declaring 6.4e9 values in a small file is refused before allocating")
    func hugeTensor() {
        let message = Self.message { _ = try LandmarkCascade(bytes: Self.forged(ModelFileFuzzTests.landmarks, dims: [80_000, 80_000])) }
        #expect(message.contains("declares 6400000000 values, more than the"), "\(message)")
    }

    @Test("weights of 3e38 (or NaN) are refused with the tensor's name")
    func absurdValues() {
        var archive = ModelFileFuzzTests.landmarks
        archive.tensors["stage.0.basis"] = .init(shape: [2, 4], values: [Float](repeating: 3e38, count: 8))
        let message = Self.message { _ = try LandmarkCascade(bytes: archive.serialized()) }
        #expect(message == "LMRK model file is corrupt: tensor stage.0.basis: value 3e+38 at 0 is not finite or exceeds the limit of 1000000.0 in magnitude")
        var confidence = ModelFileFuzzTests.confidence
        confidence.tensors["weights"] = .init(shape: [3], values: [1, .nan, 2])
        #expect(Self.message { _ = try TrackingConfidenceModel(bytes: confidence.serialized()) }.contains("value nan at 1 is not finite"))
    }

    @Test("the shipped models pass the new limits")
    func shippedModels() throws {
        let models = repositoryRoot + "/Models/"
        _ = try LandmarkCascade(contentsOf: models + "landmarks.lmrk")
        _ = try HOGFaceDetectorModel(contentsOfFile: models + "face-detector.fdet")
        _ = try TrackingConfidenceModel(contentsOf: models + "tracking-confidence.tcnf")
        _ = try MeanFace(contentsOf: models + "mean-face.json")
    }

    @Test("a detector window of Int.max cells is refused, not overflowed")
    func detectorWindow() {
        var archive = ModelFileFuzzTests.detector
        archive.metadata["window"] = "2,9223372036854775807,9223372036854775807"
        #expect(Self.message { _ = try HOGFaceDetectorModel(bytes: archive.serialized()) }.contains("bad window geometry"))
    }

    @Test("a landmark reference side of 1e-30 is refused")
    func referenceSide() {
        var archive = ModelFileFuzzTests.landmarks
        archive.metadata["reference_side"] = "1e-30"
        #expect(Self.message { _ = try LandmarkCascade(bytes: archive.serialized()) }.contains("bad 'reference_side'"))
    }

    @Test("mean-face landmarks at 1e30 are refused, naming the bound")
    func meanFaceAt1e30() throws {
        let text = try String(contentsOfFile: repositoryRoot + "/Models/mean-face.json", encoding: .utf8)
        let first = try #require(Mutations.numberRanges(in: text).first { text[$0].contains(".") })
        let forged = text.replacingCharacters(in: first, with: "1e30")
        let message = Self.message { _ = try MeanFace(json: Data(forged.utf8)) }
        #expect(message.contains("lies more than 1000 mm from the origin"), "\(message)")
    }
}
