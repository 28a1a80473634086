import FaceData
import LinearAlgebra

/// An L2-regularised, L1-loss (hinge) linear SVM trained by dual coordinate descent
/// (Hsieh, Chang, Lin, Keerthi, Sathiya, "A Dual Coordinate Descent Method for Large-scale Linear
/// SVM", ICML 2008 — LIBLINEAR's default solver): minimises ½‖w‖² + Σᵢ Cᵢ max(0, 1 − yᵢ(w·xᵢ + b)).
///
/// The bias is learnt as the weight of a constant feature `biasFeature` (so it is mildly
/// regularised, as in LIBLINEAR). Deterministic for a given seed.
public struct LinearSVM: Sendable {
    public var costPositive: Float
    public var costNegative: Float
    public var maxEpochs: Int
    /// Stop when the projected-gradient spread falls below this.
    public var tolerance: Float
    public var biasFeature: Float

    public init(costPositive: Float, costNegative: Float, maxEpochs: Int = 40, tolerance: Float = 0.05, biasFeature: Float = 10) {
        self.costPositive = costPositive
        self.costNegative = costNegative
        self.maxEpochs = maxEpochs
        self.tolerance = tolerance
        self.biasFeature = biasFeature
    }

    public struct Solution: Sendable {
        public var weights: [Float]
        public var bias: Float
        public var epochs: Int
    }

    /// Trains on `samples` (row-major, `dimensions` floats per sample) with labels ±1.
    public func train(samples: [Float], labels: [Float], dimensions d: Int, seed: UInt64) -> Solution {
        let n = labels.count
        precondition(samples.count == n * d, "samples hold \(samples.count) floats, expected \(n) x \(d)")
        var w = [Float](repeating: 0, count: d)
        var wb: Float = 0
        var alpha = [Float](repeating: 0, count: n)
        var q = [Float](repeating: 0, count: n)
        samples.withUnsafeBufferPointer { x in
            for i in 0 ..< n { q[i] = dot(x.baseAddress! + i * d, x.baseAddress! + i * d, d) + biasFeature * biasFeature }
        }
        var order = Array(0 ..< n)
        var rng = SplitMix64(seed: seed)
        var epochs = 0
        samples.withUnsafeBufferPointer { x in
        w.withUnsafeMutableBufferPointer { wp in
            for epoch in 0 ..< maxEpochs {
                epochs = epoch + 1
                order.shuffle(using: &rng)
                var maxPG = -Float.infinity, minPG = Float.infinity
                for i in order {
                    let xi = x.baseAddress! + i * d
                    let y = labels[i]
                    let c = y > 0 ? costPositive : costNegative
                    let g = y * (dot(wp.baseAddress!, xi, d) + wb * biasFeature) - 1
                    var pg = g
                    if alpha[i] == 0 { pg = min(g, 0) } else if alpha[i] == c { pg = max(g, 0) }
                    maxPG = max(maxPG, pg); minPG = min(minPG, pg)
                    if pg != 0 {
                        let old = alpha[i]
                        alpha[i] = min(max(old - g / q[i], 0), c)
                        let step = (alpha[i] - old) * y
                        if step != 0 {
                            axpy(step, xi, wp.baseAddress!, d)
                            wb += step * biasFeature
                        }
                    }
                }
                if maxPG - minPG < tolerance { break }
            }
        }}
        return Solution(weights: w, bias: wb * biasFeature, epochs: epochs)
    }
}

@inline(__always)
func axpy(_ alpha: Float, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
    for i in 0 ..< n { y[i] += alpha * x[i] }
}
