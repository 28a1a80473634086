/// One stage of the supervised-descent cascade: descriptors at stride `stride` (reference units per
/// grid sample, so the patch spans `gridSide · stride` units), and a linear map from the feature
/// vector (all landmarks' descriptors, then a constant 1) to a shape increment in the reference frame.
///
/// The map is stored in reduced-rank form `Δ = Bᵀ (Wᵀ x)`: `W` is `featureCount x rank`, the basis
/// `B` is `rank x (2 · landmarks)` (rows are orthonormal directions of shape change, x then y per point).
public struct CascadeStage: Sendable {
    public let stride: Float
    public let rank: Int
    public let featureCount: Int
    /// `featureCount x paddedRank`, zero-padded so the hot loop runs on whole SIMD8 vectors.
    let paddedWeights: [Float]
    let paddedRank: Int
    /// `paddedWeights` as half floats when every weight is one exactly (a model read from its file,
    /// which stores float16): the same products from half the bytes. Five stages of 5,033 x 24
    /// weights are 2.4 MB as floats, more than the L2 cache, and are streamed once per fit.
    let halfWeights: [Float16]?
    public let basis: [Float]
    /// With pose partitioning (Global SDM), one map per yaw domain; `nil` for one map for every pose.
    /// A partitioned stage's own map (`weights`, `basis`, `rank`) is its middle domain's, so code that
    /// reads one map per stage (the tracking-confidence fingerprint) still gets a fixed one.
    public let yawDomains: YawDomains?

    /// - Parameters:
    ///   - weights: `featureCount x rank`, row-major.
    ///   - basis: `rank x outputs`, row-major.
    public init(stride: Float, featureCount: Int, rank: Int, weights: [Float], basis: [Float]) {
        precondition(weights.count == featureCount * rank, "stage weights are not \(featureCount)x\(rank)")
        precondition(rank > 0 && basis.count % rank == 0, "stage basis does not have \(rank) rows")
        self.stride = stride
        self.featureCount = featureCount
        self.rank = rank
        let padded = (rank + 7) / 8 * 8
        var w = [Float](repeating: 0, count: featureCount * padded)
        for f in 0..<featureCount { for r in 0..<rank { w[f * padded + r] = weights[f * rank + r] } }
        paddedWeights = w
        paddedRank = padded
        let half = w.map { Float16($0) }
        halfWeights = zip(w, half).allSatisfy { Float($1) == $0 } ? half : nil
        self.basis = basis
        yawDomains = nil
    }

    /// A pose-partitioned stage: `domains.maps` all read features at `domains.maps[0].stride`.
    public init(domains: YawDomains) {
        let middle = domains.maps[domains.maps.count / 2]
        precondition(domains.maps.allSatisfy { $0.stride == middle.stride && $0.featureCount == middle.featureCount && $0.basis.count / $0.rank == middle.basis.count / middle.rank },
                     "yaw domain maps differ in stride or size")
        stride = middle.stride
        rank = middle.rank
        featureCount = middle.featureCount
        paddedWeights = middle.paddedWeights
        paddedRank = middle.paddedRank
        halfWeights = middle.halfWeights
        basis = middle.basis
        yawDomains = domains
    }

    /// The linear map for a shape whose yaw index (`YawDomains.yawIndex`) is `yaw`: its domain's, or
    /// this stage itself when it is not partitioned.
    public func map(forYaw yaw: Float) -> CascadeStage {
        guard let yawDomains else { return self }
        return yawDomains.maps[yawDomains.domain(forYaw: yaw)]
    }

    /// Every linear map of the stage (its domains', or itself).
    public var maps: [CascadeStage] { yawDomains?.maps ?? [self] }

    /// `featureCount x rank`, row-major (as passed to `init`).
    public var weights: [Float] {
        var w = [Float](repeating: 0, count: featureCount * rank)
        for f in 0..<featureCount { for r in 0..<rank { w[f * rank + r] = paddedWeights[f * paddedRank + r] } }
        return w
    }

    /// The stage keeping only its first `maxRank` output directions (the strongest: training orders
    /// them by the energy of the fitted increments), trading a little accuracy for speed.
    public func truncated(toRank maxRank: Int) -> CascadeStage {
        if let yawDomains {
            return CascadeStage(domains: YawDomains(bounds: yawDomains.bounds, maps: yawDomains.maps.map { $0.truncated(toRank: maxRank) }))
        }
        let r = max(1, min(rank, maxRank))
        guard r < rank else { return self }
        let full = weights
        var w = [Float](repeating: 0, count: featureCount * r)
        for f in 0..<featureCount { for c in 0..<r { w[f * r + c] = full[f * rank + c] } }
        return CascadeStage(stride: stride, featureCount: featureCount, rank: r, weights: w, basis: Array(basis[0..<(r * basis.count / rank)]))
    }

    /// `coefficients = Wᵀ features` for ranks up to 24 (the shipped models), the three accumulators in
    /// registers; `load` reads eight weights at a byte offset (floats or half floats), rows of
    /// `blocks · bytesPerBlock` bytes. Zero features (common after the descriptors' clipping) are skipped.
    @inline(__always)
    private func accumulate(_ features: UnsafePointer<Float>, weights: UnsafeRawPointer, bytesPerBlock: Int, blocks: Int,
                            into coefficients: UnsafeMutablePointer<Float>, load: (UnsafeRawPointer, Int) -> SIMD8<Float>) {
        let rowBytes = blocks * bytesPerBlock
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>()
        for f in 0..<featureCount {
            let x = features[f]
            if x == 0 { continue }
            let row = f * rowBytes
            a0 += x * load(weights, row)
            if blocks > 1 { a1 += x * load(weights, row + bytesPerBlock) }
            if blocks > 2 { a2 += x * load(weights, row + 2 * bytesPerBlock) }
        }
        let c = UnsafeMutableRawPointer(coefficients)
        c.storeBytes(of: a0, toByteOffset: 0, as: SIMD8<Float>.self)
        if blocks > 1 { c.storeBytes(of: a1, toByteOffset: 32, as: SIMD8<Float>.self) }
        if blocks > 2 { c.storeBytes(of: a2, toByteOffset: 64, as: SIMD8<Float>.self) }
    }

    /// The shape increment (reference frame, x/y interleaved) predicted from `features`.
    func increment(features: UnsafePointer<Float>, coefficients: UnsafeMutablePointer<Float>, into delta: UnsafeMutablePointer<Float>, outputs: Int) {
        let pr = paddedRank
        let blocks = pr / 8
        for i in 0..<pr { coefficients[i] = 0 }
        if blocks <= 3, let halfWeights {
            // From the half-float copy, converted exactly eight at a time (vcvtph2ps).
            halfWeights.withUnsafeBytes { w in
                accumulate(features, weights: w.baseAddress!, bytesPerBlock: 16, blocks: blocks, into: coefficients) { w, offset in
                    SIMD8<Float>(w.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float16>.self))
                }
            }
        } else if blocks <= 3 {
            paddedWeights.withUnsafeBytes { w in
                accumulate(features, weights: w.baseAddress!, bytesPerBlock: 32, blocks: blocks, into: coefficients) { w, offset in
                    w.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                }
            }
        } else {
        paddedWeights.withUnsafeBufferPointer { wp in
            let raw = UnsafeRawPointer(wp.baseAddress!)
            let craw = UnsafeMutableRawPointer(coefficients)
            let rowBytes = pr * 4
            // Feature-major: each weight row is read once, contiguously; the coefficients stay in L1.
            for f in 0..<featureCount {
                let x = features[f]
                if x == 0 { continue }
                let row = f * rowBytes
                for blk in 0..<blocks {
                    let off = blk * 32
                    let acc = craw.loadUnaligned(fromByteOffset: off, as: SIMD8<Float>.self)
                    craw.storeBytes(of: acc + x * raw.loadUnaligned(fromByteOffset: row + off, as: SIMD8<Float>.self), toByteOffset: off, as: SIMD8<Float>.self)
                }
            }
        }
        }
        project(coefficients, into: delta, outputs: outputs)
    }

    /// The increment for a binary feature vector given by its set features: `rows[0..<count]`, then
    /// the constant last feature (a local-binary-feature stage's leaves, ascending). It adds just those
    /// weight rows, in `increment(features:…)`'s order with the same accumulators, so it gives that
    /// dense product to the bit without scanning the zero features: the shipped 5-tree stages' 5,441
    /// features hold 341 ones (the 8-tree candidate's 8,705, 545). Tracking fit (median of each validation face's fastest of 20, `eval landmarks
    /// --boxes tracking --refinement none --timing-repeats 20`, dense and sparse builds alternated
    /// twice): 0.519 / 0.518 → 0.496 / 0.495 ms with the 8-tree, three-stage model, 0.456 / 0.453 →
    /// 0.444 / 0.442 ms with 5 trees and two stages; fits identical (per-face CSV byte for byte).
    func increment(rows: UnsafePointer<Int32>, count: Int, coefficients: UnsafeMutablePointer<Float>, into delta: UnsafeMutablePointer<Float>, outputs: Int) {
        let pr = paddedRank, blocks = pr / 8, last = Int32(featureCount - 1)
        for i in 0..<pr { coefficients[i] = 0 }
        @inline(__always)
        func sum(_ weights: UnsafeRawPointer, bytesPerBlock: Int, load: (UnsafeRawPointer, Int) -> SIMD8<Float>) {
            let rowBytes = blocks * bytesPerBlock
            var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>()
            for k in 0...count {
                let row = Int(k < count ? rows[k] : last) * rowBytes
                a0 += load(weights, row)
                if blocks > 1 { a1 += load(weights, row + bytesPerBlock) }
                if blocks > 2 { a2 += load(weights, row + 2 * bytesPerBlock) }
            }
            let c = UnsafeMutableRawPointer(coefficients)
            c.storeBytes(of: a0, toByteOffset: 0, as: SIMD8<Float>.self)
            if blocks > 1 { c.storeBytes(of: a1, toByteOffset: 32, as: SIMD8<Float>.self) }
            if blocks > 2 { c.storeBytes(of: a2, toByteOffset: 64, as: SIMD8<Float>.self) }
        }
        if blocks <= 3, let halfWeights {
            halfWeights.withUnsafeBytes { w in
                sum(w.baseAddress!, bytesPerBlock: 16) { w, offset in SIMD8<Float>(w.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float16>.self)) }
            }
        } else if blocks <= 3 {
            paddedWeights.withUnsafeBytes { w in
                sum(w.baseAddress!, bytesPerBlock: 32) { w, offset in w.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) }
            }
        } else {
            paddedWeights.withUnsafeBufferPointer { w in
                for k in 0...count {
                    let row = w.baseAddress! + Int(k < count ? rows[k] : last) * pr
                    for r in 0..<pr { coefficients[r] += row[r] }
                }
            }
        }
        project(coefficients, into: delta, outputs: outputs)
    }

    /// `delta = Bᵀ coefficients`.
    @inline(__always)
    private func project(_ coefficients: UnsafeMutablePointer<Float>, into delta: UnsafeMutablePointer<Float>, outputs: Int) {
        for o in 0..<outputs { delta[o] = 0 }
        basis.withUnsafeBufferPointer { b in
            for r in 0..<rank {
                let c = coefficients[r]
                let row = r * outputs
                for o in 0..<outputs { delta[o] += c * b[row + o] }
            }
        }
    }
}
