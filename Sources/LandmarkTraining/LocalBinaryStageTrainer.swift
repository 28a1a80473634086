import Dispatch
import Foundation
import FaceData
import Landmarks
import LinearAlgebra

/// What decides the local-binary-feature stages `LandmarkTrainer` appends after the SDM stages
/// (Ren et al., CVPR 2014). Empty `radii` = none (the shipped recipe).
public struct LocalBinaryOptions: Sendable {
    /// One stage per radius (reference units: the canonical face box is `referenceSide` = 96 across);
    /// each landmark's pixels are drawn from the disc of this radius around it.
    public var radii: [Float] = []
    public var trees = 5
    public var depth = 4
    /// Pixels drawn per landmark and stage; the split tests compare pairs of them.
    public var candidatePixels = 200
    /// Random pixel pairs (each with a random threshold) tried per node.
    public var splits = 200
    /// At most this many training samples grow the forests (the pixel table is samples x landmarks
    /// x candidates floats); every sample gets its leaves for the regression.
    public var forestSamples = 12_000
    /// Ridge strengths (x the mean Gram diagonal) and between-face weights tried for the global map,
    /// chosen together on the ridge fold (the fold's samples are unseen by the forests and maps only
    /// with `holdOut`); one value each = fixed.
    public var ridgeCandidates: [Float] = [0.003, 0.01, 0.03, 0.1, 0.3, 1]
    public var betweenWeights: [Float] = [1, 0.5, 0.2]

    public init() {}
}

/// Trains one `LocalBinaryStage` from samples at their current shapes: forests per landmark on the
/// landmarks' own offsets, then one ridge map from the sparse bits to the whole increment.
struct LocalBinaryStageTrainer {
    let cascade: LandmarkCascade
    let faces: [TrainingFace]
    let sampleFace: [Int]
    let initial: [[SIMD2<Float>]]
    let foldStart: Int
    let options: LandmarkTrainingOptions

    /// The stage for `shapes` (one per sample, image pixels), seeded by `stageIndex`.
    func train(shapes: [[SIMD2<Float>]], radius: Float, stageIndex: Int, log: (String) -> Void) throws
        -> (stage: LocalBinaryStage, ridge: Float, betweenWeight: Float, leaves: [Int32]) {
        let b = options.binary, seed = options.seed
        let n = cascade.landmarkCount, outputs = 2 * n, count = shapes.count
        let threads = max(1, options.threads)
        let trees = b.trees, depth = b.depth, p = b.candidatePixels

        // Candidate pixels per landmark: uniform in the disc (seeded per stage and landmark).
        var candidates: [[SIMD2<Float>]] = []
        for j in 0..<n {
            var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(stageIndex * 1000 + j) &+ 0x51_7CC1)
            candidates.append((0..<p).map { _ in
                let r = radius * rng.unit().squareRoot(), a = 2 * Float.pi * rng.unit()
                return SIMD2(r * cos(a), r * sin(a))
            })
        }
        // The forests learn from a regular subsample of the rows the map is fitted on (fold A, or
        // every row when the fold is not held out).
        let forestEnd = options.holdOut ? foldStart : count
        let step = max(1, (forestEnd + b.forestSamples - 1) / b.forestSamples)
        let forestRows = Array(Swift.stride(from: 0, to: forestEnd, by: step))
        let m = forestRows.count

        // 1. Targets (reference frame) of every sample, pixel table of the forest rows.
        var y = Matrix(rows: count, cols: outputs)
        var frames = [SimilarityTransform](repeating: .identity, count: count)
        var table = [Float](repeating: 0, count: n * m * p)   // [landmark][forest row][candidate]
        var forestSlot = [Int](repeating: -1, count: count)
        for (s, i) in forestRows.enumerated() { forestSlot[i] = s }
        let cas = cascade, fs = faces, sf = sampleFace, inits = initial, cands = candidates, slots = forestSlot
        y.values.withUnsafeMutableBufferPointer { yb in
        frames.withUnsafeMutableBufferPointer { fb in
        table.withUnsafeMutableBufferPointer { tb in
            let yp = SharedPointer(yb.baseAddress!), fp = SharedPointer(fb.baseAddress!), tp = SharedPointer(tb.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                var i = t
                while i < count {
                    let face = fs[sf[i]], shape = shapes[i]
                    let tr = cas.referenceTransform(for: shape), inv = tr.inverse
                    fp.pointer[i] = tr
                    for j in 0..<n {
                        let d = inv.applyLinear(face.landmarks[j] - shape[j])
                        yp.pointer[i * outputs + 2 * j] = d.x
                        yp.pointer[i * outputs + 2 * j + 1] = d.y
                    }
                    let s = slots[i]
                    if s >= 0 {
                        let crop = cas.makeCrop(image: face.image, around: inits[i])
                        for j in 0..<n {
                            let row = tp.pointer + (j * m + s) * p
                            for c in 0..<p { row[c] = crop.intensity(at: shape[j] + tr.applyLinear(cands[j][c])) }
                        }
                    }
                    i += threads
                }
            }
        }
        }
        }

        // 2. One forest per landmark, in parallel (each seeded by its landmark: deterministic).
        var forests = [LocalBinaryForest?](repeating: nil, count: n)
        let yv = y, rows = forestRows, splits = b.splits
        forests.withUnsafeMutableBufferPointer { fb in
            let fp = SharedPointer(fb.baseAddress!)
            table.withUnsafeBufferPointer { tb in
                let tp = UnsafeSendable(tb.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: threads) { t in
                    var j = t
                    while j < n {
                        let targets = rows.map { SIMD2(yv[$0, 2 * j], yv[$0, 2 * j + 1]) }
                        var rng = SplitMix64(seed: seed &+ UInt64(stageIndex * 1000 + j) &* 0xD1B5_4A32_D192_ED03)
                        fp.pointer[j] = LocalBinaryForest.train(pixels: tp.value + j * m * p, candidates: p, targets: targets, trees: trees, depth: depth,
                                                                splits: splits, rng: &rng)
                        j += threads
                    }
                }
            }
        }
        table = []
        var offsets: [SIMD4<Float>] = [], thresholds: [Float] = []
        for j in 0..<n {
            let f = forests[j]!
            for (k, pair) in f.pairs.enumerated() {
                let a = candidates[j][Int(pair.x)], c = candidates[j][Int(pair.y)]
                offsets.append(SIMD4(a.x, a.y, c.x, c.y))
                thresholds.append(f.thresholds[k])
            }
        }
        let bits = n * trees * (1 << depth), featureCount = bits + 1
        // A placeholder map to walk the trees with (`leaves` does not read it).
        let walker = LocalBinaryStage(radius: radius, trees: trees, depth: depth, landmarks: n, offsets: offsets, thresholds: thresholds,
                                      map: CascadeStage(stride: radius, featureCount: featureCount, rank: 1, weights: [Float](repeating: 0, count: featureCount), basis: [Float](repeating: 0, count: outputs)))

        // 3. Every sample's leaves, exactly as at run time.
        let active = n * trees
        var leaves = [Int32](repeating: 0, count: count * active)
        leaves.withUnsafeMutableBufferPointer { lb in
            let lp = SharedPointer(lb.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                var i = t
                while i < count {
                    let crop = cas.makeCrop(image: fs[sf[i]].image, around: inits[i])
                    walker.leaves(crop: crop, shape: shapes[i], transform: cas.referenceTransform(for: shapes[i]), into: lp.pointer + i * active)
                    i += threads
                }
            }
        }

        // 4. The global map: ridge on the sparse bits (plus a constant), between-face weighted.
        let rowsA = Array(0..<foldStart), rowsB = Array(foldStart..<count)
        let fit = try Self.fitMap(leaves: leaves, active: active, featureCount: featureCount, y: y, fitRows: rowsA, judgeRows: rowsB,
                                  faceOfRow: sampleFace, stride: radius, options: options, log: log)
        let stage = LocalBinaryStage(radius: radius, trees: trees, depth: depth, landmarks: n, offsets: offsets, thresholds: thresholds, map: fit.stage)
        return (stage, fit.ridge, fit.betweenWeight, leaves)
    }

    /// Moves every sample by the stage's (reduced-rank) increment, given the leaves it reached.
    static func move(_ shapes: inout [[SIMD2<Float>]], stage: LocalBinaryStage, leaves: [Int32], cascade: LandmarkCascade) {
        let map = stage.map, active = stage.landmarks * stage.trees
        let coefficients = predict(leaves: leaves, active: active, w: Matrix(rows: map.featureCount, cols: map.rank, values: map.weights), rows: Array(shapes.indices))
        let increments = BLAS.multiply(coefficients, Matrix(rows: map.rank, cols: 2 * stage.landmarks, values: map.basis))
        for i in shapes.indices {
            let tr = cascade.referenceTransform(for: shapes[i])
            for j in 0..<stage.landmarks {
                shapes[i][j] += tr.applyLinear(SIMD2(increments[i, 2 * j], increments[i, 2 * j + 1]))
            }
        }
    }

    /// Sparse `XᵀX` (upper triangle) and `XᵀY` of `rows`: each row has the bits `leaves[row]` and the
    /// constant (last feature) set.
    static func statistics(leaves: [Int32], active: Int, featureCount: Int, y: Matrix, rows: [Int]) -> (gram: Matrix, cross: Matrix) {
        var gram = Matrix(rows: featureCount, cols: featureCount), cross = Matrix(rows: featureCount, cols: y.cols)
        let outputs = y.cols, last = featureCount - 1
        gram.values.withUnsafeMutableBufferPointer { g in
        cross.values.withUnsafeMutableBufferPointer { c in
        leaves.withUnsafeBufferPointer { l in
        y.values.withUnsafeBufferPointer { yv in
            for i in rows {
                let bits = l.baseAddress! + i * active, yr = yv.baseAddress! + i * outputs
                for u in 0..<active {
                    let a = Int(bits[u])
                    let row = g.baseAddress! + a * featureCount
                    for v in u..<active { row[Int(bits[v])] += 1 }
                    row[last] += 1
                    let cr = c.baseAddress! + a * outputs
                    for o in 0..<outputs { cr[o] += yr[o] }
                }
                g[last * featureCount + last] += 1
                let cr = c.baseAddress! + last * outputs
                for o in 0..<outputs { cr[o] += yr[o] }
            }
        }
        }
        }
        }
        return (gram, cross)
    }

    /// The between-face part of the statistics (`Σ_f n_f x̄_f x̄_fᵀ`, `Σ_f n_f x̄_f ȳ_fᵀ`, face rows
    /// consecutive), through dense face means and BLAS.
    static func betweenFace(leaves: [Int32], active: Int, featureCount: Int, y: Matrix, rows: [Int], faceOfRow: [Int]) -> (gram: Matrix, cross: Matrix) {
        var groups: [[Int]] = []
        for r in rows {
            if let last = groups.last?.last, faceOfRow[last] == faceOfRow[r] { groups[groups.count - 1].append(r) } else { groups.append([r]) }
        }
        var mx = Matrix(rows: groups.count, cols: featureCount), my = Matrix(rows: groups.count, cols: y.cols)
        for (g, members) in groups.enumerated() {
            let scale = 1 / Float(members.count).squareRoot()   // √n · mean = sum / √n
            for i in members {
                for u in 0..<active { mx.values[g * featureCount + Int(leaves[i * active + u])] += scale }
                mx.values[g * featureCount + featureCount - 1] += scale
                for o in 0..<y.cols { my.values[g * y.cols + o] += scale * y.values[i * y.cols + o] }
            }
        }
        var gram = Matrix(rows: featureCount, cols: featureCount)
        BLAS.accumulateGram(&gram, mx)
        var cross = Matrix(rows: featureCount, cols: y.cols)
        BLAS.accumulateCross(&cross, mx, my)
        return (gram, cross)
    }

    /// The predicted increments `X W` of `rows` (reference frame), from the sparse bits.
    static func predict(leaves: [Int32], active: Int, w: Matrix, rows: [Int]) -> Matrix {
        var out = Matrix(rows: rows.count, cols: w.cols)
        let k = w.cols, last = w.rows - 1
        for (r, i) in rows.enumerated() {
            for o in 0..<k { out.values[r * k + o] = w.values[last * k + o] }
            for u in 0..<active {
                let a = Int(leaves[i * active + u])
                for o in 0..<k { out.values[r * k + o] += w.values[a * k + o] }
            }
        }
        return out
    }

    /// Ridge (and between-face weight) chosen on `judgeRows`; the map fitted on `fitRows` (plus the
    /// judging rows unless holding out), truncated to its dominant output directions.
    static func fitMap(leaves: [Int32], active: Int, featureCount: Int, y: Matrix, fitRows: [Int], judgeRows: [Int], faceOfRow: [Int],
                       stride: Float, options o: LandmarkTrainingOptions, log: (String) -> Void) throws -> (stage: CascadeStage, ridge: Float, betweenWeight: Float) {
        let b = o.binary
        var statsA = statistics(leaves: leaves, active: active, featureCount: featureCount, y: y, rows: fitRows)
        let weights = b.betweenWeights.filter { $0 > 0 && $0 <= 1 }
        let betweenA = weights.contains(where: { $0 < 1 }) ? betweenFace(leaves: leaves, active: active, featureCount: featureCount, y: y, rows: fitRows, faceOfRow: faceOfRow) : nil
        var diag: Float = 0
        for i in 0..<featureCount { diag += statsA.gram[i, i] }
        let unit = diag / Float(featureCount)
        let bias: Set<Int> = [featureCount - 1]
        let yB = LandmarkTrainer.gather(y, rows: judgeRows)
        func solve(_ s: (gram: Matrix, cross: Matrix), _ between: (gram: Matrix, cross: Matrix)?, gamma: Float, ridge: Float, unit: Float) throws -> Matrix {
            var gram = s.gram, cross = s.cross
            if gamma < 1, let between {
                gram = LandmarkTrainer.subtracting(gram, between.gram, times: 1 - gamma)
                cross = LandmarkTrainer.subtracting(cross, between.cross, times: 1 - gamma)
            }
            return try RidgeRegression.solve(gram: gram, cross: cross, lambda: ridge * unit, unpenalized: bias)
        }
        var best = (error: Float.infinity, ridge: b.ridgeCandidates[b.ridgeCandidates.count / 2], gamma: weights.first ?? 1)
        var bestW: Matrix?
        let choosing = b.ridgeCandidates.count * max(1, weights.count) > 1
        if choosing || o.holdOut {
            var tried: [String] = []
            for g in weights.isEmpty ? [1] : weights {
                for r in b.ridgeCandidates {
                    let w = try solve(statsA, betweenA, gamma: g, ridge: r, unit: unit)
                    var err: Float = .infinity
                    if !judgeRows.isEmpty {
                        let pred = predict(leaves: leaves, active: active, w: w, rows: judgeRows)
                        var e: Double = 0
                        for i in pred.values.indices { let d = Double(pred.values[i] - yB.values[i]); e += d * d }
                        err = Float((e / Double(judgeRows.count)).squareRoot())
                    }
                    tried.append(String(format: "γ %.3g ridge %.4g %.4f", g, r, err))
                    if err < best.error || bestW == nil { best = (err, r, g); bestW = w }
                }
            }
            log("  binary map, ridge fold RMS: " + tried.joined(separator: ", "))
        }
        var w: Matrix
        var fitted = fitRows
        if o.holdOut, let kept = bestW {
            w = kept
        } else {
            // Every training row: the statistics of both folds summed, the ridge in the summed units.
            let statsB = statistics(leaves: leaves, active: active, featureCount: featureCount, y: y, rows: judgeRows)
            for i in statsA.gram.values.indices { statsA.gram.values[i] += statsB.gram.values[i] }
            for i in statsA.cross.values.indices { statsA.cross.values[i] += statsB.cross.values[i] }
            var between: (gram: Matrix, cross: Matrix)? = nil
            if best.gamma < 1 { between = betweenFace(leaves: leaves, active: active, featureCount: featureCount, y: y, rows: fitRows + judgeRows, faceOfRow: faceOfRow) }
            var d: Float = 0
            for i in 0..<featureCount { d += statsA.gram[i, i] }
            w = try solve(statsA, between, gamma: best.gamma, ridge: best.ridge, unit: d / Float(featureCount))
            fitted = fitRows + judgeRows
        }
        // Reduced rank: the output directions carrying the fitted increments' energy.
        let pred = predict(leaves: leaves, active: active, w: w, rows: fitted)
        let energy = BLAS.multiply(pred, transposeA: true, pred)
        let stage = try LandmarkTrainer.reducedRank(w, energy: energy, stride: stride, featureCount: featureCount, options: o)
        return (stage, best.ridge, best.gamma)
    }
}

/// A read-only pointer handed to worker threads.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: UnsafePointer<T>
    init(_ v: UnsafePointer<T>) { value = v }
}
