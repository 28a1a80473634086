import FaceData
import FaceDetection
import Imaging
@testable import LandmarkTraining
@testable import Landmarks
import ModelFormat
import Testing

@Suite struct LocalBinaryFeatureTests {
    /// A synthetic pixel table whose targets depend on one pixel difference only: offset (+3, −1)
    /// when candidate 5 is brighter than candidate 9 by more than 10 levels, else (−2, +4). Every
    /// tree must find that test: the mean target of each leaf then reproduces the offset of every
    /// sample it holds.
    @Test func forestRecoversAKnownOffset() {
        let samples = 600, candidates = 12
        var rng = SplitMix64(seed: 11)
        var pixels = [Float](repeating: 0, count: samples * candidates)
        for i in pixels.indices { pixels[i] = 255 * rng.unit() }
        let targets = (0..<samples).map { s in
            pixels[s * candidates + 5] - pixels[s * candidates + 9] > 10 ? SIMD2<Float>(3, -1) : SIMD2<Float>(-2, 4)
        }
        var trainRng = SplitMix64(seed: 5)
        let forest = pixels.withUnsafeBufferPointer {
            LocalBinaryForest.train(pixels: $0.baseAddress!, candidates: candidates, targets: targets, trees: 4, depth: 3, splits: 400, rng: &trainRng)
        }
        #expect(forest.pairs.count == 4 * 7 && forest.thresholds.count == 4 * 7)
        for t in 0..<4 {
            var sums = [SIMD2<Float>](repeating: .zero, count: 8), counts = [Int](repeating: 0, count: 8)
            var leaves = [Int](repeating: 0, count: samples)
            pixels.withUnsafeBufferPointer { p in
                for s in 0..<samples { leaves[s] = forest.leaf(tree: t, row: p.baseAddress! + s * candidates) }
            }
            for s in 0..<samples { sums[leaves[s]] += targets[s]; counts[leaves[s]] += 1 }
            // Random thresholds land near, not on, the true 10: a few samples may share a leaf with
            // the other offset, so a few leaf means are off by a little for the many they hold.
            let off = (0..<samples).filter { s in
                let d = sums[leaves[s]] / Float(counts[leaves[s]]) - targets[s]
                return (d * d).sum().squareRoot() > 0.7
            }
            #expect(off.count < samples / 20, "tree \(t) does not separate the two offsets: \(off.count) of \(samples) samples off")
        }
    }

    /// A cascade with one binary stage whose bits carry no weight and whose constant moves every
    /// point by (1.5, −0.5) reference units: the fit is the SDM fit moved by exactly that, through
    /// the shape's similarity; and the stage survives its file (version 4) bit for bit in its walk.
    @Test func binaryStageRunsAfterTheSDMStagesAndRoundTrips() throws {
        let plain = randomCascade(stages: 1)
        let stage = Self.randomBinaryStage(landmarks: 68, trees: 2, depth: 3, constant: SIMD2(1.5, -0.5), bitWeight: 0)
        let cascade = LandmarkCascade(meanShape: plain.meanShape, boxShape: plain.boxShape, descriptor: plain.descriptor, referenceSide: 96,
                                      stages: plain.stages, binaryStages: [stage])
        let image = texturedImage(width: 200, height: 180)
        let start = cascade.initialShape(for: FaceBox(x: 50, y: 40, width: 100, height: 100))
        let sdm = plain.fit(image: image, initial: start), both = cascade.fit(image: image, initial: start)
        let t = cascade.referenceTransform(for: sdm)
        for i in 0..<68 {
            let expected = sdm[i] + t.applyLinear(SIMD2(1.5, -0.5))
            #expect(abs(both[i].x - expected.x) < 1e-3 && abs(both[i].y - expected.y) < 1e-3)
        }

        let withBits = LandmarkCascade(meanShape: plain.meanShape, boxShape: plain.boxShape, descriptor: plain.descriptor, referenceSide: 96, stages: plain.stages,
                                       binaryStages: [Self.randomBinaryStage(landmarks: 68, trees: 2, depth: 3, constant: .zero, bitWeight: 0.3)])
        let archive = withBits.archive(weightEncoding: .float32)
        #expect(archive.version == 4)
        #expect(plain.archive().version == 2, "a cascade without binary stages is written as before")
        let loaded = try LandmarkCascade(bytes: archive.serialized())
        #expect(loaded.binaryStages.count == 1 && loaded.binaryStages[0].thresholds == withBits.binaryStages[0].thresholds)
        #expect(loaded.fit(image: image, initial: start) == withBits.fit(image: image, initial: start))
        #expect(withBits.fit(image: image, initial: start) != sdm, "the bits moved nothing")
    }

    /// Binary-stage keys in an older version, or a forest of the wrong size, are refused with one line.
    @Test func damagedBinaryStagesAreRefused() throws {
        let plain = randomCascade(stages: 1)
        let cascade = LandmarkCascade(meanShape: plain.meanShape, boxShape: plain.boxShape, descriptor: plain.descriptor, referenceSide: 96, stages: plain.stages,
                                      binaryStages: [Self.randomBinaryStage(landmarks: 68, trees: 2, depth: 3, constant: .zero, bitWeight: 0.3)])
        let archive = cascade.archive()
        let old = ModelArchive(kind: "LMRK", version: 3, metadata: archive.metadata, tensors: archive.tensors)
        #expect(throws: ModelFileError.self) { _ = try LandmarkCascade(bytes: old.serialized()) }
        var short = archive
        short.tensors["binary.0.thresholds"] = .init(shape: [10], values: [Float](repeating: 0, count: 10))
        do {
            _ = try LandmarkCascade(bytes: short.serialized())
            Issue.record("a forest with too few thresholds was accepted")
        } catch let e as ModelFileError {
            #expect(e.description.contains("binary stage 0") && !e.description.contains("\n"))
        }
        var deep = archive
        deep.metadata["binary.0.depth"] = "40"
        #expect(throws: ModelFileError.self) { _ = try LandmarkCascade(bytes: deep.serialized()) }
    }

    /// Random forests (offsets within 10 units, thresholds ±30 levels) and a map whose rank-2 basis
    /// is x and y translation: each bit moves every point by `bitWeight` (x, y alternating by tree),
    /// the constant by `constant`.
    static func randomBinaryStage(landmarks n: Int, trees: Int, depth: Int, constant: SIMD2<Float>, bitWeight: Float) -> LocalBinaryStage {
        var rng = SplitMix64(seed: 9)
        let nodes = n * trees * ((1 << depth) - 1), features = n * trees * (1 << depth) + 1
        let offsets = (0..<nodes).map { _ in SIMD4(rng.symmetric(), rng.symmetric(), rng.symmetric(), rng.symmetric()) * 10 }
        let thresholds = (0..<nodes).map { _ in rng.symmetric() * 30 }
        var weights = [Float](repeating: 0, count: features * 2)
        for f in 0..<(features - 1) { weights[2 * f + (f / 5) % 2] = bitWeight * rng.symmetric() }
        weights[2 * (features - 1)] = constant.x
        weights[2 * (features - 1) + 1] = constant.y
        var basis = [Float](repeating: 0, count: 2 * 2 * n)
        for j in 0..<n { basis[2 * j] = 1; basis[2 * n + 2 * j + 1] = 1 }
        let map = CascadeStage(stride: 8, featureCount: features, rank: 2, weights: weights, basis: basis)
        return LocalBinaryStage(radius: 8, trees: trees, depth: depth, landmarks: n, offsets: offsets, thresholds: thresholds, map: map)
    }
}
