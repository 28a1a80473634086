import FaceData

/// Training of one landmark's random forest for a `LocalBinaryStage` (Ren et al., CVPR 2014, §3.1):
/// every tree regresses the landmark's own 2-D offset from pixel-difference tests. What it
/// represents: `trees` complete trees of `depth` levels in heap order, each node a pair of
/// candidate pixels (indices into the candidate list the pixel table was sampled at) and a threshold
/// on their difference; a node too small to split sends everything to its first child (threshold
/// `LocalBinaryForest.noSplit`, above any grey-level difference).
///
/// Requires: `pixels` holds `samples x candidates` intensities, row-major; `targets` one offset per
/// sample. Ensures: the same inputs and `rng` state give the same forest.
public struct LocalBinaryForest: Sendable {
    public var pairs: [SIMD2<Int32>]
    public var thresholds: [Float]
    public let trees: Int
    public let depth: Int

    /// A threshold no difference of two grey levels (0-255) reaches: "no split".
    public static let noSplit: Float = 1_000

    public var nodesPerTree: Int { (1 << depth) - 1 }

    /// Trains the forest. Each tree sees a random `sampleFraction` of the samples (a random forest,
    /// not boosting: Ren et al. train every tree on the same targets); each node tries `splits` random
    /// pixel pairs, each with `thresholdsPerPair` thresholds (random samples' differences in the node), and keeps the
    /// one that most reduces the squared error of the offsets (`minLeaf` samples per side at least).
    public static func train(pixels: UnsafePointer<Float>, candidates: Int, targets: [SIMD2<Float>], trees: Int, depth: Int,
                             splits: Int, thresholdsPerPair: Int = 3, sampleFraction: Float = 0.75, minLeaf: Int = 4, rng: inout SplitMix64) -> LocalBinaryForest {
        precondition(candidates >= 2 && trees > 0 && depth > 0 && splits > 0, "bad forest parameters")
        let nodes = (1 << depth) - 1
        var pairs = [SIMD2<Int32>](repeating: .zero, count: trees * nodes)
        var thresholds = [Float](repeating: noSplit, count: trees * nodes)
        let n = targets.count
        var diffs = [Float](repeating: 0, count: n)
        for t in 0..<trees {
            var index: [Int32] = []
            for s in 0..<n where rng.unit() < sampleFraction { index.append(Int32(s)) }
            // Node k owns index[ranges[k]]; children are filled when k is split.
            var ranges = [Range<Int>](repeating: 0..<0, count: 2 * nodes + 1)
            ranges[0] = 0..<index.count
            for k in 0..<nodes {
                let r = ranges[k]
                var best = (score: -Float.infinity, a: Int32(0), b: Int32(1), threshold: noSplit)
                if r.count >= 2 * minLeaf {
                    var total = SIMD2<Float>.zero
                    for i in r { total += targets[Int(index[i])] }
                    for _ in 0..<splits {
                        let a = Int(rng.next() % UInt64(candidates))
                        var b = Int(rng.next() % UInt64(candidates - 1))
                        if b >= a { b += 1 }
                        for i in r {
                            let s = Int(index[i])
                            diffs[i] = pixels[s * candidates + a] - pixels[s * candidates + b]
                        }
                        // A few thresholds per pair, each a random sample's difference: the pair's
                        // differences are the costly part (scattered reads), a threshold is one pass.
                        for _ in 0..<thresholdsPerPair {
                            let threshold = diffs[r.lowerBound + Int(rng.next() % UInt64(r.count))]
                            var left = SIMD2<Float>.zero, nLeft = 0
                            for i in r where diffs[i] < threshold {
                                left += targets[Int(index[i])]; nLeft += 1
                            }
                            let nRight = r.count - nLeft
                            guard nLeft >= minLeaf, nRight >= minLeaf else { continue }
                            let right = total - left
                            // Squared-error reduction up to a constant: Σ_children |Σ r|² / n.
                            let score = (left * left).sum() / Float(nLeft) + (right * right).sum() / Float(nRight)
                            if score > best.score { best = (score, Int32(a), Int32(b), threshold) }
                        }
                    }
                }
                pairs[t * nodes + k] = SIMD2(best.a, best.b)
                thresholds[t * nodes + k] = best.threshold
                // Partition the node's samples: first child (difference below the threshold) first.
                var mid = r.lowerBound
                for i in r {
                    let s = Int(index[i])
                    if pixels[s * candidates + Int(best.a)] - pixels[s * candidates + Int(best.b)] < best.threshold {
                        index.swapAt(i, mid); mid += 1
                    }
                }
                ranges[2 * k + 1] = r.lowerBound..<mid
                ranges[2 * k + 2] = mid..<r.upperBound
            }
        }
        return LocalBinaryForest(pairs: pairs, thresholds: thresholds, trees: trees, depth: depth)
    }

    /// The leaf (0 ..< 2^depth) tree `tree` sends a sample with candidate intensities `row` to.
    public func leaf(tree: Int, row: UnsafePointer<Float>) -> Int {
        let nodes = nodesPerTree, base = tree * nodes
        var k = 0
        while k < nodes {
            let p = pairs[base + k]
            k = row[Int(p.x)] - row[Int(p.y)] < thresholds[base + k] ? 2 * k + 1 : 2 * k + 2
        }
        return k - nodes
    }
}
