import FaceData
@testable import Landmarks
import Testing

/// A stage whose weights are all half floats (a model read from its file) regresses from a
/// half-float copy of them: the same products in the same order, so the same increment to the bit.
struct CascadeStageTests {
    static func stage(featureCount: Int, rank: Int, halfExact: Bool, seed: UInt64) -> CascadeStage {
        var rng = SplitMix64(seed: seed)
        var weights = (0..<(featureCount * rank)).map { _ in Float(Float16(rng.symmetric() * 0.02)) }
        if !halfExact { weights[3] += 1e-7 }
        let basis = (0..<(rank * 136)).map { _ in rng.symmetric() }
        return CascadeStage(stride: 1, featureCount: featureCount, rank: rank, weights: weights, basis: basis)
    }

    /// Wᵀx then Bᵀ, feature by feature, as the float path accumulates.
    static func reference(_ stage: CascadeStage, _ x: [Float]) -> [Float] {
        let w = stage.weights
        var c = [Float](repeating: 0, count: stage.rank)
        for f in 0..<stage.featureCount where x[f] != 0 { for r in 0..<stage.rank { c[r] += x[f] * w[f * stage.rank + r] } }
        var d = [Float](repeating: 0, count: 136)
        for r in 0..<stage.rank { for o in 0..<136 { d[o] += c[r] * stage.basis[r * 136 + o] } }
        return d
    }

    @Test(arguments: [8, 17, 24])
    func halfWeightsGiveTheFloatIncrement(rank: Int) {
        let stage = Self.stage(featureCount: 301, rank: rank, halfExact: true, seed: UInt64(rank))
        #expect(stage.halfWeights != nil)
        var rng = SplitMix64(seed: 7)
        let x = (0..<301).map { i in i % 5 == 0 ? 0 : rng.unit() }
        var coefficients = [Float](repeating: 0, count: stage.paddedRank), delta = [Float](repeating: 0, count: 136)
        x.withUnsafeBufferPointer { xs in
            stage.increment(features: xs.baseAddress!, coefficients: &coefficients, into: &delta, outputs: 136)
        }
        #expect(delta == Self.reference(stage, x))
    }

    @Test func weightsThatAreNotHalfFloatsStayFloat() {
        #expect(Self.stage(featureCount: 40, rank: 8, halfExact: false, seed: 1).halfWeights == nil)
    }

    @Test func theBundledModelRegressesFromHalfFloats() throws {
        let model = try LandmarkCascade(contentsOf: SharedData.bundledModel)
        #expect(model.stages.allSatisfy { $0.halfWeights != nil })
    }

    /// A binary stage's map applied to the rows of its set bits alone (`increment(rows:…)`) gives the
    /// dense product over the whole 0/1 vector exactly: half-float weights (rank 24, as shipped),
    /// float weights, and a rank above the three-accumulator path; one leaf of 16 per tree and the
    /// constant last feature set.
    @Test(arguments: [(24, true), (17, false), (30, true)])
    func setRowsGiveTheDenseIncrement(rank: Int, halfExact: Bool) {
        let trees = 20, leavesPerTree = 16, featureCount = trees * leavesPerTree + 1
        let stage = Self.stage(featureCount: featureCount, rank: rank, halfExact: halfExact, seed: UInt64(100 + rank))
        #expect((stage.halfWeights != nil) == halfExact)
        var rng = SplitMix64(seed: 3)
        let rows = (0..<trees).map { t in Int32(t * leavesPerTree + Int(rng.unit() * Float(leavesPerTree - 1) + 0.5)) }
        var x = [Float](repeating: 0, count: featureCount)
        for r in rows { x[Int(r)] = 1 }
        x[featureCount - 1] = 1
        var coefficients = [Float](repeating: 0, count: stage.paddedRank), sparse = [Float](repeating: 0, count: 136), dense = sparse
        rows.withUnsafeBufferPointer { r in
            stage.increment(rows: r.baseAddress!, count: trees, coefficients: &coefficients, into: &sparse, outputs: 136)
        }
        x.withUnsafeBufferPointer { xs in
            stage.increment(features: xs.baseAddress!, coefficients: &coefficients, into: &dense, outputs: 136)
        }
        #expect(sparse == dense)
        let reference = Self.reference(stage, x)
        let worst = zip(sparse, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 1e-5 * (reference.map(abs).max() ?? 1), "sparse and dense increments differ by \(worst)")
        #expect(reference.contains { $0 != 0 })
    }
}
