import Dispatch
import Foundation
import FaceData
import FaceMarkup
import FaceDetection
import Imaging
import Landmarks
import LinearAlgebra

/// Progress of a training run, for a progress bar: `fraction` of the whole run done (0...1).
public struct TrainingProgress: Sendable {
    public let fraction: Double
    public let phase: String
}

/// What one trained stage did, measured on the training samples.
public struct StageReport: Sendable {
    public let stage: Int
    public let stride: Float
    /// Chosen ridge strength (multiple of the Gram matrix's mean diagonal) and the fold error of each candidate.
    public let ridge: Float
    public let ridgeScores: [(ridge: Float, error: Float)]
    public let rank: Int
    /// Mean inter-ocular NME of the training samples before and after the stage.
    public let nmeBefore: Float
    public let nmeAfter: Float
    /// The same over the ridge-selection fold's samples alone (unseen faces with `holdOut`).
    public let foldNMEBefore: Float
    public let foldNMEAfter: Float
    /// Chosen weight of the between-face part of the least-squares fit (1 = ordinary ridge; see
    /// `LandmarkTrainingOptions.betweenWeights`).
    public let betweenWeight: Float
}

/// Trains a `LandmarkCascade` by supervised descent (Xiong & De la Torre 2013).
///
/// Each face (and its mirror) gets `perturbations` initial shapes from its box jittered by
/// ±`centreJitter` / ±`scaleJitter` and mapped through the learned box-to-shape mapping. Stage by
/// stage, descriptors at the current shapes are regressed onto the remaining error in the reference
/// frame by ridge least squares (Cholesky on the Gram matrix), the ridge strength is chosen on a
/// held-out fold of the training faces, the map is truncated to its dominant output directions, and
/// the samples move by the predicted increments before the next stage is fitted.
public final class LandmarkTrainer {
    public let options: LandmarkTrainingOptions

    public init(options: LandmarkTrainingOptions) {
        self.options = options
    }

    public struct TrainingError: Error, CustomStringConvertible {
        public let description: String
    }

    public func train(faces input: [TrainingFace], progress: @escaping (TrainingProgress) -> Void = { _ in },
                      log: (String) -> Void = { _ in }) throws -> (LandmarkCascade, [StageReport]) {
        let o = options
        guard !input.isEmpty else { throw TrainingError(description: "no training faces") }
        let n = input[0].landmarks.count
        guard input.allSatisfy({ $0.landmarks.count == n }) else { throw TrainingError(description: "faces have different landmark counts") }
        guard !o.mirror || n == IBUG68.count else { throw TrainingError(description: "mirror augmentation needs the 68-point markup") }
        guard !o.strides.isEmpty, o.perturbations > 0 else { throw TrainingError(description: "need at least one stage and one perturbation") }

        // Faces: originals then mirrors; the ridge fold is decided per original so a mirror shares its fold.
        var faces = input
        if o.mirror { faces += input.map { $0.mirrored(mirror: IBUG68.mirror) } }
        guard o.yawDomains == 1 || n == IBUG68.count else { throw TrainingError(description: "yaw domains need the 68-point markup") }
        guard (1...8).contains(o.yawDomains), o.yawOverlap >= 0 else { throw TrainingError(description: "yaw domains must be 1...8, their overlap ≥ 0") }
        guard o.ridgeFold >= 0, (o.ridgeFold + 1) * o.ridgeFoldPercent <= 100 else { throw TrainingError(description: "ridge fold \(o.ridgeFold) does not fit in 100 % at \(o.ridgeFoldPercent) % per fold") }
        let inFold = faces.map { Self.isRidgeFold($0.name, percent: o.ridgeFoldPercent, fold: o.ridgeFold) }

        // Learned box-to-shape mapping and the reference frame.
        let boxShape = Self.boxShape(faces: faces, mirror: false)
        let meanShape = Self.procrustesMean(faces.map(\.landmarks), start: boxShape, side: o.referenceSide)
        var cascade = LandmarkCascade(meanShape: meanShape, boxShape: boxShape, descriptor: o.descriptor,
                                      referenceSide: o.referenceSide, stages: [], shapeFeatureScale: o.shapeFeatureScale)

        // Samples: fold-A (fitting) first, then fold-B (ridge selection), so each fold is a row range.
        var rng = SplitMix64(seed: o.seed)
        var order: [Int] = []
        for (i, f) in inFold.enumerated() where !f { order.append(i) }
        let foldStartFace = order.count
        for (i, f) in inFold.enumerated() where f { order.append(i) }
        var sampleFace: [Int] = []
        var initial: [[SIMD2<Float>]] = []
        var foldStart = 0
        for (k, fi) in order.enumerated() {
            if k == foldStartFace { foldStart = sampleFace.count }
            let b = faces[fi].box
            for p in 0..<o.perturbations {
                let wide = p >= o.perturbations - o.widePerturbations
                let spread: Float = wide ? 2 : 1
                let side = (b.width + b.height) / 2
                let s = side * (1 + spread * o.scaleJitter * rng.symmetric())
                let c = b.centre + SIMD2(rng.symmetric(), rng.symmetric()) * (spread * o.centreJitter * side)
                sampleFace.append(fi)
                var start = cascade.initialShape(for: FaceBox(x: c.x - s / 2, y: c.y - s / 2, width: s, height: s))
                let rotation = wide ? max(o.wideRotation, o.rotationJitter) : o.rotationJitter
                if rotation > 0 {
                    let angle = rotation * Float.pi / 180 * rng.symmetric()
                    let r = SimilarityTransform(a: cos(angle), b: sin(angle), tx: 0, ty: 0)
                    start = start.map { c + r.applyLinear($0 - c) }
                }
                initial.append(start)
            }
        }
        if foldStartFace == order.count { foldStart = sampleFace.count }
        let count = sampleFace.count
        guard foldStart > 0 else { throw TrainingError(description: "every face fell into the ridge-selection fold; use more faces") }
        log("\(faces.count) faces (\(input.count) + mirrors), \(count) samples, \(count - foldStart) in the ridge fold; features \(cascade.featureCount)")

        var shapes = initial
        let outputs = 2 * n
        let featureCount = cascade.featureCount
        var x = Matrix(rows: count, cols: featureCount)
        var y = Matrix(rows: count, cols: outputs)
        var frames = [SIMD2<Float>](repeating: .zero, count: count)   // (a, b) of each sample's reference transform
        var reports: [StageReport] = []
        let stageCount = o.strides.count

        for (k, stride) in o.strides.enumerated() {
            let before = Self.meanNME(shapes, faces: faces, sampleFace: sampleFace)
            let foldNMEBefore = Self.meanNME(Array(shapes[foldStart...]), faces: faces, sampleFace: Array(sampleFace[foldStart...]))
            // 1. Descriptors and targets, in parallel over disjoint sample rows.
            let threads = max(1, o.threads)
            let current = shapes, inits = initial, facesCopy = faces, sf = sampleFace, cas = cascade
            let counter = Counter()
            let report = UncheckedBox(progress)
            x.values.withUnsafeMutableBufferPointer { xb in
            y.values.withUnsafeMutableBufferPointer { yb in
            frames.withUnsafeMutableBufferPointer { fb in
                let xp = SharedPointer(xb.baseAddress!), yp = SharedPointer(yb.baseAddress!), fp = SharedPointer(fb.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: threads) { t in
                    var ws = LandmarkCascade.Workspace(cascade: cas)
                    var i = t
                    while i < count {
                        let face = facesCopy[sf[i]]
                        let crop = cas.makeCrop(image: face.image, around: inits[i])
                        let tr = ws.extract(cascade: cas, crop: crop, shape: current[i], stride: stride)
                        ws.features.withUnsafeBufferPointer { f in
                            (xp.pointer + i * featureCount).update(from: f.baseAddress!, count: featureCount)
                        }
                        let inv = tr.inverse
                        for j in 0..<n {
                            let d = inv.applyLinear(face.landmarks[j] - current[i][j])
                            yp.pointer[i * outputs + 2 * j] = d.x
                            yp.pointer[i * outputs + 2 * j + 1] = d.y
                        }
                        fp.pointer[i] = SIMD2(tr.a, tr.b)
                        if t == 0 && i % 256 == 0 {
                            let done = counter.add(256 * threads)
                            report.value(TrainingProgress(fraction: (Double(k) + 0.5 * min(1, Double(done) / Double(count))) / Double(stageCount),
                                                          phase: "stage \(k + 1)/\(stageCount): descriptors"))
                        }
                        i += threads
                    }
                }
            }
            }
            }
            progress(TrainingProgress(fraction: (Double(k) + 0.5) / Double(stageCount), phase: "stage \(k + 1)/\(stageCount): regression"))

            // 2-5. One linear map, or one per yaw domain (Global SDM), each with its ridge chosen on
            // the held-out fold. Rows 0..<foldStart are fold A (fitting), the rest fold B.
            let rowsA = Array(0..<foldStart), rowsB = Array(foldStart..<count)
            var stage: CascadeStage
            var ridges: [Float] = [], ranks: [Int] = [], scores: [(ridge: Float, error: Float)] = []
            var route = [Int](repeating: 0, count: count)   // which map moves each sample (the run-time rule)
            var betweenWeight: Float = 1
            var crossMoves: [(rows: [Int], increments: Matrix)] = []
            if o.yawDomains > 1 && k >= o.yawFromStage {
                let yaw = shapes.map { cascade.yawIndex(of: $0, transform: cascade.referenceTransform(for: $0)) }
                let yawA = rowsA.map { yaw[$0] }.sorted()
                let bounds = (1..<o.yawDomains).map { yawA[min(yawA.count - 1, $0 * yawA.count / o.yawDomains)] }
                let meanA = yawA.reduce(0, +) / Float(yawA.count)
                let sd = (yawA.reduce(0) { $0 + ($1 - meanA) * ($1 - meanA) } / Float(yawA.count)).squareRoot()
                let margin = o.yawOverlap * sd
                for i in 0..<count { route[i] = YawDomains.domain(forYaw: yaw[i], bounds: bounds) }
                // With `yawPrior`, the global map of this stage is what each domain's ridge pulls towards.
                var prior: Matrix?
                if o.yawPrior {
                    let global = try Self.fitMap(x: x, y: y, fitRows: rowsA, judgeRows: rowsB, stride: stride, options: o)
                    prior = global.full
                    log(String(format: "  global map: ridge %.4g", global.ridge))
                }
                var maps: [CascadeStage] = []
                for d in 0..<o.yawDomains {
                    let lo = d == 0 ? -Float.infinity : bounds[d - 1] - margin
                    let hi = d == o.yawDomains - 1 ? Float.infinity : bounds[d] + margin
                    let fitRows = rowsA.filter { yaw[$0] >= lo && yaw[$0] <= hi }
                    let judgeRows = rowsB.filter { route[$0] == d }
                    let fit = try Self.fitMap(x: x, y: y, fitRows: fitRows, judgeRows: judgeRows, stride: stride, prior: prior,
                                              ridgeCandidates: prior == nil ? nil : o.yawPriorCandidates, options: o)
                    maps.append(fit.stage); ridges.append(fit.ridge); ranks.append(fit.stage.rank)
                    if d == o.yawDomains / 2 { scores = fit.scores }
                    log(String(format: "  yaw domain %d (%.3f...%.3f): %d + %d samples, ridge %.4g, rank %d", d, lo, hi, fitRows.count, judgeRows.count, fit.ridge, fit.stage.rank))
                }
                stage = CascadeStage(domains: YawDomains(bounds: bounds, maps: maps))
            } else {
                var so = o   // a stage with fixed parameters fits exactly those (no choice on the ridge fold)
                if let fixed = o.stageParameters, k < fixed.count {
                    so.ridgeCandidates = [fixed[k].ridge]
                    so.betweenWeights = [fixed[k].betweenWeight]
                    so.forceBetweenWeight = true
                }
                let fit = try Self.fitMap(x: x, y: y, fitRows: rowsA, judgeRows: rowsB, stride: stride, faceOfRow: sampleFace, options: so)
                stage = fit.stage; ridges = [fit.ridge]; ranks = [fit.stage.rank]; scores = fit.scores; betweenWeight = fit.betweenWeight
                if !fit.betweenScores.isEmpty {
                    let plain = fit.scores.min(by: { $0.error < $1.error })
                    log(String(format: "  ridge fold RMS: ordinary %.4f (ridge %.4g); ", plain?.error ?? .nan, plain?.ridge ?? .nan)
                        + fit.betweenScores.map { String(format: "γ %.3g ridge %.4g %.4f", $0.weight, $0.ridge, $0.error) }.joined(separator: ", "))
                }
                if o.crossFit > 1 && k < min(stageCount - 1, o.crossFitStages) {
                    // Stacking-style cross-fitting: each group of training faces moves by a map fitted
                    // without it, so the next stage learns from the residuals unseen faces will have.
                    let trainRows = o.holdOut ? rowsA : Array(0..<count)
                    let group = trainRows.map { Self.crossFitGroup(faces[sampleFace[$0]].name, groups: o.crossFit) }
                    for g in 0..<o.crossFit {
                        let fitRows = zip(trainRows, group).filter { $0.1 != g }.map(\.0)
                        let moveRows = zip(trainRows, group).filter { $0.1 == g }.map(\.0)
                        guard !fitRows.isEmpty, !moveRows.isEmpty else { continue }
                        crossMoves.append((moveRows, try Self.heldOutIncrements(x: x, y: y, fitRows: fitRows, moveRows: moveRows, ridge: fit.ridge,
                                                                             betweenWeight: fit.betweenWeight, faceOfRow: sampleFace, stage: fit.stage)))
                    }
                }
            }
            progress(TrainingProgress(fraction: (Double(k) + 0.9) / Double(stageCount), phase: "stage \(k + 1)/\(stageCount): moving samples"))
            cascade.stages.append(stage)

            // 6. Move every sample by what its (reduced) map predicts, exactly as at run time (or, when
            // cross-fitting, by the map fitted without its face).
            var movedAlready = [Bool](repeating: false, count: count)
            for (rows, increments) in crossMoves {
                for (r, i) in rows.enumerated() {
                    movedAlready[i] = true
                    let tr = SimilarityTransform(a: frames[i].x, b: frames[i].y, tx: 0, ty: 0)
                    for j in 0..<n {
                        shapes[i][j] += tr.applyLinear(SIMD2(increments[r, 2 * j], increments[r, 2 * j + 1]))
                    }
                }
            }
            for (d, map) in stage.maps.enumerated() {
                let rows = (0..<count).filter { route[$0] == d && !movedAlready[$0] }
                guard !rows.isEmpty else { continue }
                let xd = Self.gather(x, rows: rows)
                let w = Matrix(rows: featureCount, cols: map.rank, values: map.weights)
                let increments = BLAS.multiply(BLAS.multiply(xd, w), Matrix(rows: map.rank, cols: outputs, values: map.basis))
                for (r, i) in rows.enumerated() {
                    let tr = SimilarityTransform(a: frames[i].x, b: frames[i].y, tx: 0, ty: 0)
                    for j in 0..<n {
                        shapes[i][j] += tr.applyLinear(SIMD2(increments[r, 2 * j], increments[r, 2 * j + 1]))
                    }
                }
            }
            let ridge = ridges[ridges.count / 2], rank = ranks.max() ?? 0
            let foldAfter = Self.meanNME(Array(shapes[foldStart...]), faces: faces, sampleFace: Array(sampleFace[foldStart...]))
            let foldBefore = foldNMEBefore
            let after = Self.meanNME(shapes, faces: faces, sampleFace: sampleFace)
            let rep = StageReport(stage: k, stride: stride, ridge: ridge, ridgeScores: scores, rank: rank, nmeBefore: before, nmeAfter: after,
                                  foldNMEBefore: foldBefore, foldNMEAfter: foldAfter, betweenWeight: betweenWeight)
            reports.append(rep)
            log(String(format: "stage %d stride %.2f: ridge %@, between-face weight %.3g, rank %@, train NME %.4f -> %.4f, ridge fold %.4f -> %.4f%@", k + 1, stride,
                       ridges.map { String(format: "%.4g", $0) }.joined(separator: "/"), betweenWeight, ranks.map(String.init).joined(separator: "/"),
                       before, after, foldBefore, foldAfter, o.holdOut ? " (held out)" : ""))
            progress(TrainingProgress(fraction: Double(k + 1) / Double(stageCount), phase: "stage \(k + 1)/\(stageCount) done"))
        }

        // Stages on local binary features (Ren et al. 2014), from the shapes the SDM stages left.
        let binary = LocalBinaryStageTrainer(cascade: cascade, faces: faces, sampleFace: sampleFace, initial: initial, foldStart: foldStart, options: o)
        var binaryReports: [String] = []
        for (k, radius) in o.binary.radii.enumerated() {
            progress(TrainingProgress(fraction: 1, phase: "binary stage \(k + 1)/\(o.binary.radii.count)"))
            let before = Self.meanNME(shapes, faces: faces, sampleFace: sampleFace)
            let foldBefore = Self.meanNME(Array(shapes[foldStart...]), faces: faces, sampleFace: Array(sampleFace[foldStart...]))
            let fit = try binary.train(shapes: shapes, radius: radius, stageIndex: k, log: log)
            LocalBinaryStageTrainer.move(&shapes, stage: fit.stage, leaves: fit.leaves, cascade: cascade)
            cascade.binaryStages.append(fit.stage)
            let after = Self.meanNME(shapes, faces: faces, sampleFace: sampleFace)
            let foldAfter = Self.meanNME(Array(shapes[foldStart...]), faces: faces, sampleFace: Array(sampleFace[foldStart...]))
            binaryReports.append(String(format: "radius %g: ridge %.4g, γ %.3g, rank %d", radius, fit.ridge, fit.betweenWeight, fit.stage.map.rank))
            log(String(format: "binary stage %d radius %.2f (%d trees of depth %d per point): ridge %.4g, between-face weight %.3g, rank %d, train NME %.4f -> %.4f, ridge fold %.4f -> %.4f%@",
                       k + 1, radius, o.binary.trees, o.binary.depth, fit.ridge, fit.betweenWeight, fit.stage.map.rank, before, after, foldBefore, foldAfter,
                       o.holdOut ? " (held out)" : ""))
        }
        if !binaryReports.isEmpty { cascade.metadata["training.binary_stages"] = binaryReports.joined(separator: "; ") }
        return (cascade, reports)
    }

    /// The box-to-shape mapping: the mean landmark position relative to each face's box, in units of
    /// the box side (`landmark = centre + side · q`). With `mirror`, mirrored faces are averaged in too.
    public static func boxShape(faces: [TrainingFace], mirror: Bool) -> [SIMD2<Float>] {
        let all = mirror ? faces + faces.map { $0.mirrored(mirror: IBUG68.mirror) } : faces
        let n = all[0].landmarks.count
        var q = [SIMD2<Float>](repeating: .zero, count: n)
        for f in all {
            let side = (f.box.width + f.box.height) / 2, c = f.box.centre
            for i in 0..<n { q[i] += (f.landmarks[i] - c) / side }
        }
        return q.map { $0 / Float(all.count) }
    }

    /// Generalised Procrustes mean of `shapes`, scaled so its canonical box is `side` wide and centred on 0.
    static func procrustesMean(_ shapes: [[SIMD2<Float>]], start: [SIMD2<Float>], side: Float) -> [SIMD2<Float>] {
        func normalise(_ s: [SIMD2<Float>]) -> [SIMD2<Float>] {
            let b = FaceBox.canonical(landmarks: s)
            return s.map { ($0 - b.centre) * (side / b.width) }
        }
        var mean = normalise(start)
        for _ in 0..<3 {
            var sum = [SIMD2<Float>](repeating: .zero, count: mean.count)
            for s in shapes {
                let t = SimilarityTransform.fit(from: s, to: mean)
                for i in 0..<s.count { sum[i] += t.apply(s[i]) }
            }
            mean = normalise(sum.map { $0 / Float(shapes.count) })
        }
        return mean
    }

    static func meanNME(_ shapes: [[SIMD2<Float>]], faces: [TrainingFace], sampleFace: [Int]) -> Float {
        var total: Double = 0
        for (i, s) in shapes.enumerated() {
            let truth = faces[sampleFace[i]].landmarks
            total += Double(AlignmentError.meanError(s, truth) / AlignmentError.normaliser(truth))
        }
        return Float(total / Double(max(1, shapes.count)))
    }

    /// Whether a face is in ridge-selection fold `fold` (its `percent` % slice of the faces, by an
    /// FNV-1a hash of the face's original name: stable membership across runs, a mirror with its original).
    public static func isRidgeFold(_ name: String, percent: Int, fold: Int = 0) -> Bool {
        let base = name.hasSuffix("#mirror") ? String(name.dropLast(7)) : name
        let bucket = Int((nameHash(base) >> 7) % 100)
        return bucket >= fold * percent && bucket < (fold + 1) * percent
    }

    /// Cross-fitting group (0..<groups) of a face, by a hash of its original name (a mirror with its original).
    static func crossFitGroup(_ name: String, groups: Int) -> Int {
        let base = name.hasSuffix("#mirror") ? String(name.dropLast(7)) : name
        return Int((nameHash(base) >> 23) % UInt64(groups))
    }

    /// The increments of `moveRows` predicted by a map fitted on `fitRows` alone (ridge `ridge` x the
    /// mean Gram diagonal, the between-face part weighted by `betweenWeight` as the stage's own map
    /// was), projected onto `stage`'s output directions as the stage itself would be.
    static func heldOutIncrements(x: Matrix, y: Matrix, fitRows: [Int], moveRows: [Int], ridge: Float, betweenWeight: Float = 1, faceOfRow: [Int]? = nil,
                                  stage: CascadeStage) throws -> Matrix {
        let featureCount = x.cols, outputs = y.cols
        let xf = gather(x, rows: fitRows), yf = gather(y, rows: fitRows)
        var gram = Matrix(rows: featureCount, cols: featureCount)
        BLAS.accumulateGram(&gram, xf)
        var cross = Matrix(rows: featureCount, cols: outputs)
        BLAS.accumulateCross(&cross, xf, yf)
        var diag: Float = 0   // of the ordinary Gram matrix: the ridge's unit, as when it was chosen
        for i in 0..<featureCount { diag += gram[i, i] }
        if betweenWeight < 1, let faceOfRow {
            let between = Self.betweenFace(x: xf, y: yf, faces: fitRows.map { faceOfRow[$0] })
            gram = Self.subtracting(gram, between.gram, times: 1 - betweenWeight)
            cross = Self.subtracting(cross, between.cross, times: 1 - betweenWeight)
        }
        let w = try RidgeRegression.solve(gram: gram, cross: cross, lambda: ridge * diag / Float(featureCount), unpenalized: [featureCount - 1])
        let basis = Matrix(rows: stage.rank, cols: outputs, values: stage.basis)
        return BLAS.multiply(BLAS.multiply(BLAS.multiply(gather(x, rows: moveRows), w), basis, transposeB: true), basis)
    }

    /// Rows `rows` of `m` as a new matrix.
    static func gather(_ m: Matrix, rows: [Int]) -> Matrix {
        var out = Matrix(rows: rows.count, cols: m.cols)
        m.values.withUnsafeBufferPointer { src in
            out.values.withUnsafeMutableBufferPointer { dst in
                for (r, i) in rows.enumerated() {
                    (dst.baseAddress! + r * m.cols).update(from: src.baseAddress! + i * m.cols, count: m.cols)
                }
            }
        }
        return out
    }

    /// One stage's linear map: ridge least squares on `fitRows` (plus `judgeRows` unless holding
    /// out), the ridge strength chosen by the error on `judgeRows`, truncated to its dominant output
    /// directions (reduced rank).
    ///
    /// With a `prior` (a full-rank map, `features x outputs`) the ridge pulls the map towards it
    /// rather than towards zero, `‖X W − Y‖² + λ ‖W − prior‖²`: a yaw domain's map then departs from
    /// the global map only as far as its own samples support.
    ///
    /// With `faceOfRow` (the face of each row of `x`; a face's rows are consecutive) and between-face
    /// weights other than 1 in the options, the fit is also tried with each face's mean row (the
    /// between-face part of the Gram matrix and cross product) down-weighted: see
    /// `LandmarkTrainingOptions.betweenWeights`. The weight and ridge are chosen together on `judgeRows`.
    static func fitMap(x: Matrix, y: Matrix, fitRows: [Int], judgeRows: [Int], stride: Float, faceOfRow: [Int]? = nil, prior: Matrix? = nil, ridgeCandidates: [Float]? = nil,
                       options o: LandmarkTrainingOptions) throws -> (stage: CascadeStage, ridge: Float, scores: [(ridge: Float, error: Float)], full: Matrix, betweenWeight: Float,
                                                                                       betweenScores: [(weight: Float, ridge: Float, error: Float)]) {
        let candidates = ridgeCandidates ?? o.ridgeCandidates
        let featureCount = x.cols, outputs = y.cols
        let xA = gather(x, rows: fitRows), yA = gather(y, rows: fitRows)
        let xB = gather(x, rows: judgeRows), yB = gather(y, rows: judgeRows)
        var gramA = Matrix(rows: featureCount, cols: featureCount)
        BLAS.accumulateGram(&gramA, xA)
        var crossA = Matrix(rows: featureCount, cols: outputs)
        BLAS.accumulateCross(&crossA, xA, yA)
        func meanDiagonal(_ g: Matrix) -> Float {
            var d: Float = 0
            for i in 0..<featureCount { d += g[i, i] }
            return d / Float(featureCount)
        }
        let bias: Set<Int> = [featureCount - 1]
        func pulled(_ cross: Matrix, _ lambda: Float) -> Matrix {
            guard let prior else { return cross }
            var c = cross
            for i in 0..<(featureCount - 1) { for j in 0..<outputs { c[i, j] += lambda * prior[i, j] } }
            return c
        }

        // Ridge strength by error on the judging rows.
        var scores: [(ridge: Float, error: Float)] = []
        var solved: [Float: Matrix] = [:]
        if xB.rows > 0 {
            for r in candidates {
                let lambda = r * meanDiagonal(gramA)
                let w = try RidgeRegression.solve(gram: gramA, cross: pulled(crossA, lambda), lambda: lambda, unpenalized: bias)
                let pred = BLAS.multiply(xB, w)
                var e: Double = 0
                for i in 0..<pred.values.count {
                    let d = Double(pred.values[i] - yB.values[i]); e += d * d
                }
                scores.append((r, Float((e / Double(xB.rows)).squareRoot())))
                solved[r] = w
            }
        }
        let ridge = scores.min(by: { $0.error < $1.error })?.ridge ?? candidates[candidates.count / 2]

        // Between-face down-weighting (random-effects GLS): tried at the chosen ridge and its two
        // neighbours on the candidate list (with `betweenRidgeExtend`, further out while the judging
        // error keeps falling at the window's edge), kept only if it beats ordinary ridge there.
        let weights = o.betweenWeights.filter { $0 > 0 && $0 < 1 }
        var best = (weight: Float(1), ridge: ridge, error: o.forceBetweenWeight && !weights.isEmpty ? .infinity : scores.min(by: { $0.error < $1.error })?.error ?? .infinity)
        var bestW: Matrix? = nil
        var betweenA: (gram: Matrix, cross: Matrix)? = nil
        var betweenScores: [(weight: Float, ridge: Float, error: Float)] = []
        if let faceOfRow, !weights.isEmpty, xB.rows > 0, prior == nil, let at = candidates.firstIndex(of: ridge) {
            let between = Self.betweenFace(x: xA, y: yA, faces: fitRows.map { faceOfRow[$0] })
            betweenA = between
            for g in weights {
                let gram = Self.subtracting(gramA, between.gram, times: 1 - g), cross = Self.subtracting(crossA, between.cross, times: 1 - g)
                _ = try Self.ridgeWindow(count: candidates.count, around: at, extend: o.betweenRidgeExtend) { index in
                    let r = candidates[index]
                    let w = try RidgeRegression.solve(gram: gram, cross: cross, lambda: r * meanDiagonal(gramA), unpenalized: bias)
                    let pred = BLAS.multiply(xB, w)
                    var e: Double = 0
                    for i in 0..<pred.values.count {
                        let d = Double(pred.values[i] - yB.values[i]); e += d * d
                    }
                    let err = Float((e / Double(xB.rows)).squareRoot())
                    betweenScores.append((g, r, err))
                    if err < best.error { best = (g, r, err); bestW = w }
                    return err
                }
            }
        }
        let chosenRidge = best.ridge

        // Final fit: all training rows, or fold A alone when the fold is held out.
        let w: Matrix
        if o.holdOut, best.weight < 1, let kept = bestW {
            w = kept
        } else if o.holdOut, best.weight == 1, let kept = solved[ridge] {
            w = kept
        } else {
            var gram = gramA
            BLAS.accumulateGram(&gram, xB)
            var cross = crossA
            BLAS.accumulateCross(&cross, xB, yB)
            if best.weight < 1, let faceOfRow, let betweenA {
                let betweenB = Self.betweenFace(x: xB, y: yB, faces: judgeRows.map { faceOfRow[$0] })
                gram = Self.subtracting(Self.subtracting(gram, betweenA.gram, times: 1 - best.weight), betweenB.gram, times: 1 - best.weight)
                cross = Self.subtracting(Self.subtracting(cross, betweenA.cross, times: 1 - best.weight), betweenB.cross, times: 1 - best.weight)
            }
            // The ridge stays in units of the ordinary Gram matrix's mean diagonal, as when it was chosen.
            var plain = gramA
            BLAS.accumulateGram(&plain, xB)
            let lambda = chosenRidge * meanDiagonal(plain)
            w = try RidgeRegression.solve(gram: gram, cross: pulled(cross, lambda), lambda: lambda, unpenalized: bias)
        }

        // Reduced rank: keep the output directions that carry the fitted increments (of the rows fitted).
        let fittedA = BLAS.multiply(xA, w)
        var energy = BLAS.multiply(fittedA, transposeA: true, fittedA)
        if !o.holdOut && xB.rows > 0 {
            let fittedB = BLAS.multiply(xB, w)
            let energyB = BLAS.multiply(fittedB, transposeA: true, fittedB)
            for i in energy.values.indices { energy.values[i] += energyB.values[i] }
        }
        let stage = try reducedRank(w, energy: energy, stride: stride, featureCount: featureCount, options: o)
        return (stage, chosenRidge, scores, w, best.weight, betweenScores)
    }

    /// Reduced-rank regression: the map `w` (features x outputs) kept on the output directions that
    /// carry `rankEnergy` of the fitted increments' energy (`energy` = ŶᵀŶ, outputs x outputs), at
    /// least 1 and at most `maxRank` of them. The SDM stages and the local-binary stages share it.
    static func reducedRank(_ w: Matrix, energy: Matrix, stride: Float, featureCount: Int, options o: LandmarkTrainingOptions) throws -> CascadeStage {
        let outputs = w.cols
        let (values, vectors) = try SymmetricEigen.decompose(energy)
        let total = values.reduce(0) { $0 + max($1, 0) }
        var rank = 0, acc: Float = 0
        while rank < outputs && acc < o.rankEnergy * total { acc += max(values[rank], 0); rank += 1 }
        rank = max(1, min(rank, o.maxRank))
        var v = Matrix(rows: outputs, cols: rank)
        for r in 0..<outputs { for c in 0..<rank { v[r, c] = vectors[r, c] } }
        let wr = BLAS.multiply(w, v)
        return CascadeStage(stride: stride, featureCount: featureCount, rank: rank, weights: wr.values, basis: v.transposed.values)
    }

    /// The between-face part of `XᵀX` and `XᵀY`: `Σ_f n_f x̄_f x̄_fᵀ` and `Σ_f n_f x̄_f ȳ_fᵀ` over each
    /// face's rows (consecutive rows with the same `faces` entry); upper triangle of the Gram only.
    public static func betweenFace(x: Matrix, y: Matrix, faces: [Int]) -> (gram: Matrix, cross: Matrix) {
        var starts: [Int] = []
        for r in 0..<faces.count where r == 0 || faces[r] != faces[r - 1] { starts.append(r) }
        var mx = Matrix(rows: starts.count, cols: x.cols), my = Matrix(rows: starts.count, cols: y.cols)
        for (g, lo) in starts.enumerated() {
            let hi = g + 1 < starts.count ? starts[g + 1] : faces.count
            let scale = 1 / Float(hi - lo).squareRoot()   // √n · mean = sum / √n
            for r in lo..<hi {
                for c in 0..<x.cols { mx.values[g * x.cols + c] += x.values[r * x.cols + c] }
                for c in 0..<y.cols { my.values[g * y.cols + c] += y.values[r * y.cols + c] }
            }
            for c in 0..<x.cols { mx.values[g * x.cols + c] *= scale }
            for c in 0..<y.cols { my.values[g * y.cols + c] *= scale }
        }
        var gram = Matrix(rows: x.cols, cols: x.cols)
        BLAS.accumulateGram(&gram, mx)
        var cross = Matrix(rows: x.cols, cols: y.cols)
        BLAS.accumulateCross(&cross, mx, my)
        return (gram, cross)
    }

    /// `a − t · b`, elementwise.
    static func subtracting(_ a: Matrix, _ b: Matrix, times t: Float) -> Matrix {
        var c = a
        for i in c.values.indices { c.values[i] -= t * b.values[i] }
        return c
    }
}

/// A raw pointer handed to worker threads that write disjoint elements.
struct SharedPointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ p: UnsafeMutablePointer<T>) { pointer = p }
}

struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ v: T) { value = v }
}

final class Counter: @unchecked Sendable {
    private var n = 0
    func add(_ k: Int) -> Int { n += k; return n }
}
