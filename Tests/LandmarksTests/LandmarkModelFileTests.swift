import FaceDetection
import Imaging
import Landmarks
import ModelFormat
import Testing

@Suite struct LandmarkModelFileTests {
    @Test func roundTripKeepsPredictions() throws {
        let cascade = randomCascade()
        let bytes = cascade.archive(weightEncoding: .float32).serialized()
        let loaded = try LandmarkCascade(bytes: bytes)
        let image = texturedImage(width: 200, height: 180)
        let box = FaceBox(x: 50, y: 40, width: 100, height: 100)
        let a = cascade.landmarks(in: image, box: box), b = loaded.landmarks(in: image, box: box)
        #expect(a.count == 68)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 1e-3 && abs(a[i].y - b[i].y) < 1e-3) }
        #expect(loaded.metadata["landmarks"] == "68")
        #expect(loaded.descriptor == cascade.descriptor)
    }

    @Test func float16WeightsStayClose() throws {
        let cascade = randomCascade()
        let loaded = try LandmarkCascade(bytes: cascade.archive(weightEncoding: .float16).serialized())
        let image = texturedImage(width: 200, height: 180)
        let box = FaceBox(x: 50, y: 40, width: 100, height: 100)
        let a = cascade.landmarks(in: image, box: box), b = loaded.landmarks(in: image, box: box)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 0.05 && abs(a[i].y - b[i].y) < 0.05) }
    }

    @Test func corruptTruncatedAndForeignFilesAreRefused() throws {
        let bytes = randomCascade(stages: 1).archive().serialized()
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x40
        #expect(throws: ModelArchiveError.checksumMismatch(kind: "LMRK")) { _ = try LandmarkCascade(bytes: flipped) }
        #expect(throws: (any Error).self) { _ = try LandmarkCascade(bytes: Array(bytes.prefix(bytes.count - 100))) }
        #expect(throws: (any Error).self) { _ = try LandmarkCascade(bytes: Array(bytes.prefix(10))) }
        #expect(throws: ModelArchiveError.notAModel(expectedKind: "LMRK")) { _ = try LandmarkCascade(bytes: [UInt8](repeating: 7, count: 64)) }
        let future = ModelArchive(kind: "LMRK", version: 99, metadata: [:], tensors: [:]).serialized()
        #expect(throws: ModelArchiveError.unsupportedVersion(kind: "LMRK", found: 99, supported: LandmarkCascade.supportedVersions)) { _ = try LandmarkCascade(bytes: future) }
        let detector = ModelArchive(kind: "FDET", version: 1, metadata: [:], tensors: [:]).serialized()
        #expect(throws: ModelArchiveError.wrongKind(found: "FDET", expected: "LMRK")) { _ = try LandmarkCascade(bytes: detector) }
    }

    @Test func shapeFeaturesRoundTripAndVersionOneFilesStillLoad() throws {
        let cascade = randomCascade(shapeFeatureScale: 0.03)
        #expect(cascade.featureCount == 68 * cascade.descriptor.length + 136 + 1)
        let loaded = try LandmarkCascade(bytes: cascade.archive(weightEncoding: .float32).serialized())
        #expect(loaded.shapeFeatureScale == 0.03 && loaded.featureCount == cascade.featureCount)
        let image = texturedImage(width: 200, height: 180)
        let box = FaceBox(x: 50, y: 40, width: 100, height: 100)
        let a = cascade.landmarks(in: image, box: box), b = loaded.landmarks(in: image, box: box)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 1e-3 && abs(a[i].y - b[i].y) < 1e-3) }

        // A version-1 file (written before shape features existed) has no scale and loads without them.
        let plain = randomCascade()
        var v1 = plain.archive(weightEncoding: .float32)
        v1.metadata["shape_feature_scale"] = nil
        let old = ModelArchive(kind: "LMRK", version: 1, metadata: v1.metadata, tensors: v1.tensors)
        let reloaded = try LandmarkCascade(bytes: old.serialized())
        #expect(reloaded.shapeFeatureScale == 0 && reloaded.featureCount == plain.featureCount)
        #expect(reloaded.landmarks(in: image, box: box) == plain.landmarks(in: image, box: box))
    }

    @Test func shapeFeaturesAreZeroForASimilarityOfTheMeanShape() {
        let cascade = randomCascade(stages: 1, shapeFeatureScale: 0.03)
        let image = texturedImage(width: 200, height: 180)
        let t = SimilarityTransform(a: 0.9, b: 0.2, tx: 100, ty: 90)
        let shape = cascade.meanShape.map { t.apply($0) }
        var ws = LandmarkCascade.Workspace(cascade: cascade)
        ws.extract(cascade: cascade, crop: cascade.makeCrop(image: image, around: shape), shape: shape, stride: 1.5)
        let start = 68 * cascade.descriptor.length
        for i in start..<(start + 136) { #expect(abs(ws.features[i]) < 1e-4) }
        // Moving one point shows up, in the reference frame and scaled, in its two slots.
        var moved = shape
        moved[30] += t.applyLinear(SIMD2(4, 0))
        ws.extract(cascade: cascade, crop: cascade.makeCrop(image: image, around: shape), shape: moved, stride: 1.5)
        #expect(ws.features[start + 60] > 0.03 * 3 && abs(ws.features[start + 61]) < 0.03)
        #expect(ws.features.last == 1)
    }

    @Test func inconsistentTensorsAreRefusedWithAMessage() throws {
        var archive = randomCascade(stages: 1).archive()
        archive.metadata["descriptor"] = "cells=3 cell_samples=4 bins=8"   // weights were made for cells=2
        do {
            _ = try LandmarkCascade(bytes: archive.serialized())
            Issue.record("a model whose weights do not match its descriptor was accepted")
        } catch let e as ModelFileError {
            #expect(e.description.contains("stage 0 weights"))
        }
    }
}
