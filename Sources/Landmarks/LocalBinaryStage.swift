/// A cascade stage on *local binary features* (Ren, Cao, Wei, Sun, "Face Alignment at 3000 FPS via
/// Regressing Local Binary Features", CVPR 2014): every landmark owns a small random forest whose
/// split nodes compare two pixels sampled at offsets from that landmark (reference units, within
/// `radius`, laid out by the shape's reference-to-image similarity like the SDM descriptors); the
/// leaf each tree reaches sets one bit of a sparse binary vector (`landmarks x trees x 2^depth` bits,
/// exactly `landmarks x trees` of them set), and one linear map (`map`, with a constant last
/// feature) turns that vector into the whole shape increment in the reference frame.
///
/// Trees are complete binary trees of `depth` levels in heap order: node `k`'s children are `2k + 1`
/// (the pixel difference `I(a) − I(b)` below the node's threshold) and `2k + 2`; the nodes of tree
/// `t` of landmark `j` start at `(j · trees + t) · nodesPerTree`, its leaves at bit
/// `(j · trees + t) · 2^depth`. Intensities are read from the crop's level 0 (bilinear, clamped to
/// the crop), the same crop the descriptors use.
public struct LocalBinaryStage: Sendable {
    public let radius: Float
    public let trees: Int
    public let depth: Int
    public let landmarks: Int
    /// Per node `(ax, ay, bx, by)`: the two pixel offsets from the landmark, reference units.
    public let offsets: [SIMD4<Float>]
    /// Per node: go to the first child when `I(a) − I(b) < threshold` (grey levels).
    public let thresholds: [Float]
    /// `binaryCount + 1` features (the bits, then a constant 1) to the increment.
    public let map: CascadeStage

    public var nodesPerTree: Int { (1 << depth) - 1 }
    public var leavesPerTree: Int { 1 << depth }
    /// Length of the binary vector (without the constant).
    public var binaryCount: Int { landmarks * trees * leavesPerTree }

    public init(radius: Float, trees: Int, depth: Int, landmarks: Int, offsets: [SIMD4<Float>], thresholds: [Float], map: CascadeStage) {
        precondition(trees > 0 && (1...10).contains(depth) && landmarks > 0, "bad forest layout")
        let nodes = landmarks * trees * ((1 << depth) - 1)
        precondition(offsets.count == nodes && thresholds.count == nodes, "forest has \(offsets.count) nodes, expected \(nodes)")
        precondition(map.featureCount == landmarks * trees * (1 << depth) + 1 && map.yawDomains == nil, "map does not read the binary features")
        self.radius = radius; self.trees = trees; self.depth = depth; self.landmarks = landmarks
        self.offsets = offsets; self.thresholds = thresholds; self.map = map
    }

    /// Writes the index of the bit each tree sets (ascending, `landmarks · trees` of them) into `leaves`,
    /// for `shape` (image pixels) whose reference-to-image similarity is `transform`.
    public func leaves(crop: FaceCrop, shape: [SIMD2<Float>], transform: SimilarityTransform, into leaves: UnsafeMutablePointer<Int32>) {
        let nodes = nodesPerTree, width = leavesPerTree
        offsets.withUnsafeBufferPointer { off in
            thresholds.withUnsafeBufferPointer { thr in
                var out = 0
                for j in 0..<landmarks {
                    let p = shape[j]
                    for t in 0..<trees {
                        let tree = j * trees + t, base = tree * nodes
                        var k = 0
                        while k < nodes {
                            let o = off[base + k]
                            let a = crop.intensity(at: p + transform.applyLinear(SIMD2(o.x, o.y)))
                            let b = crop.intensity(at: p + transform.applyLinear(SIMD2(o.z, o.w)))
                            k = a - b < thr[base + k] ? 2 * k + 1 : 2 * k + 2
                        }
                        leaves[out] = Int32(tree * width + k - nodes)
                        out += 1
                    }
                }
            }
        }
    }
}

extension FaceCrop {
    /// Level-0 intensity at image point `p`, bilinear, clamped to the crop (0 for a non-finite point,
    /// which only a diverged fit produces; the module is built without bounds checks).
    @inline(__always)
    public func intensity(at p: SIMD2<Float>) -> Float {
        let q = level0Point(p)
        guard q.x.isFinite, q.y.isFinite, width > 1, height > 1 else { return 0 }
        let x = Swift.min(Swift.max(q.x, 0), Float(width - 1)), y = Swift.min(Swift.max(q.y, 0), Float(height - 1))
        let x0 = Swift.min(Int(x), width - 2), y0 = Swift.min(Int(y), height - 2)
        let fx = x - Float(x0), fy = y - Float(y0)
        return level0.withUnsafeBufferPointer { px in
            let r = y0 * width + x0
            let top = px[r] + fx * (px[r + 1] - px[r])
            let bottom = px[r + width] + fx * (px[r + width + 1] - px[r + width])
            return top + fy * (bottom - top)
        }
    }
}
