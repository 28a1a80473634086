import FaceDetection
import ModelFormat
import Testing

@Suite struct DetectorModelFileTests {
    static func model() -> HOGFaceDetectorModel {
        let window = DetectorWindow()
        let n = window.cells * window.cells * HOGFeatureMap.stride
        var w = [Float](repeating: 0, count: n)
        for i in 0 ..< n where i % HOGFeatureMap.stride != HOGFeatureMap.dimensions { w[i] = Float(i % 13) / 64 - 0.1 }
        let filter = LinearWindowFilter(cellsX: window.cells, cellsY: window.cells, weights: w, bias: -0.75)
        return HOGFaceDetectorModel(window: window, filters: [filter], threshold: -0.4, provenance: ["training.seed": "7"])
    }

    @Test func roundTrip() throws {
        let original = Self.model()
        let loaded = try HOGFaceDetectorModel(bytes: original.serialized())
        #expect(loaded.window == original.window)
        #expect(loaded.threshold == original.threshold)
        #expect(loaded.provenance["training.seed"] == "7")
        #expect(loaded.filters.count == 1)
        #expect(loaded.filters[0].bias == -0.75)
        // float16 storage: weights agree to about 1e-3.
        for (a, b) in zip(loaded.filters[0].weights, original.filters[0].weights) { #expect(abs(a - b) < 1e-3) }
    }

    @Test func earlyRejectionRoundTrips() throws {
        var m = Self.model()
        m.filters[0].pruneRows = 3
        m.filters[0].pruneThreshold = -2.5
        let loaded = try HOGFaceDetectorModel(bytes: m.serialized())
        #expect(loaded.filters[0].pruneRows == 3 && loaded.filters[0].pruneThreshold == -2.5)
        #expect(try HOGFaceDetectorModel(bytes: Self.model().serialized()).filters[0].pruneRows == 0)
    }

    @Test func corruptByteIsRejected() {
        var bytes = Self.model().serialized()
        bytes[bytes.count / 2] ^= 0x40
        #expect(throws: ModelArchiveError.checksumMismatch(kind: "FDET")) { try HOGFaceDetectorModel(bytes: bytes) }
    }

    @Test func truncatedFileIsRejected() {
        let bytes = Self.model().serialized()
        #expect(throws: ModelArchiveError.self) { try HOGFaceDetectorModel(bytes: Array(bytes.prefix(bytes.count - 100))) }
        #expect(throws: ModelArchiveError.self) { try HOGFaceDetectorModel(bytes: Array(bytes.prefix(10))) }
    }

    @Test func wrongVersionAndKindAreRejected() {
        var archive = Self.model().archive()
        archive.version = 2
        #expect(throws: ModelArchiveError.unsupportedVersion(kind: "FDET", found: 2, supported: 1 ... 1)) {
            try HOGFaceDetectorModel(bytes: archive.serialized())
        }
        let other = ModelArchive(kind: "LMRK", version: 1)
        #expect(throws: ModelArchiveError.wrongKind(found: "LMRK", expected: "FDET")) { try HOGFaceDetectorModel(bytes: other.serialized()) }
    }

    @Test func wrongFeatureSpecIsRejected() {
        var archive = Self.model().archive()
        archive.metadata["feature"] = "fhog31-cell4"
        let error = #expect(throws: ModelArchiveError.self) { try HOGFaceDetectorModel(bytes: archive.serialized()) }
        #expect(error?.description.contains("feature spec") == true)
    }
}
