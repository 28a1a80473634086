import Dispatch
import Foundation
import FaceData
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
        let inFold = faces.map { Self.isRidgeFold($0.name, percent: o.ridgeFoldPercent) }

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

            // 2. Sufficient statistics of both folds.
            var gramA = Matrix(rows: featureCount, cols: featureCount)
            BLAS.accumulateGram(&gramA, x, rows: 0..<foldStart)
            var crossA = Matrix(rows: featureCount, cols: outputs)
            BLAS.accumulateCross(&crossA, x, y, rows: 0..<foldStart)
            var meanDiag: Float = 0
            for i in 0..<featureCount { meanDiag += gramA[i, i] }
            meanDiag /= Float(featureCount)
            let bias: Set<Int> = [featureCount - 1]

            // 3. Ridge strength by error on the held-out fold.
            var scores: [(ridge: Float, error: Float)] = []
            if foldStart < count {
                for (ci, r) in o.ridgeCandidates.enumerated() {
                    let w = try RidgeRegression.solve(gram: gramA, cross: crossA, lambda: r * meanDiag, unpenalized: bias)
                    let pred = BLAS.multiply(x, rows: foldStart..<count, w)
                    var e: Double = 0
                    for i in 0..<pred.values.count {
                        let d = Double(pred.values[i] - y.values[foldStart * outputs + i]); e += d * d
                    }
                    scores.append((r, Float((e / Double(count - foldStart)).squareRoot())))
                    progress(TrainingProgress(fraction: (Double(k) + 0.5 + 0.4 * Double(ci + 1) / Double(o.ridgeCandidates.count)) / Double(stageCount),
                                              phase: "stage \(k + 1)/\(stageCount): ridge selection"))
                }
            }
            let ridge = scores.min(by: { $0.error < $1.error })?.ridge ?? o.ridgeCandidates[o.ridgeCandidates.count / 2]

            // 4. Final fit on all training samples.
            var gram = gramA
            BLAS.accumulateGram(&gram, x, rows: foldStart..<count)
            var cross = crossA
            BLAS.accumulateCross(&cross, x, y, rows: foldStart..<count)
            var diag: Float = 0
            for i in 0..<featureCount { diag += gram[i, i] }
            diag /= Float(featureCount)
            let w = try RidgeRegression.solve(gram: gram, cross: cross, lambda: ridge * diag, unpenalized: bias)

            // 5. Reduced rank: keep the output directions that carry the fitted increments.
            let fitted = BLAS.multiply(x, w)
            let energy = BLAS.multiply(fitted, transposeA: true, fitted)
            let (values, vectors) = try SymmetricEigen.decompose(energy)
            let total = values.reduce(0) { $0 + max($1, 0) }
            var rank = 0, acc: Float = 0
            while rank < outputs && acc < o.rankEnergy * total { acc += max(values[rank], 0); rank += 1 }
            rank = max(1, min(rank, o.maxRank))
            var v = Matrix(rows: outputs, cols: rank)
            for r in 0..<outputs { for c in 0..<rank { v[r, c] = vectors[r, c] } }
            let wr = BLAS.multiply(w, v)
            let basis = v.transposed
            let stage = CascadeStage(stride: stride, featureCount: featureCount, rank: rank, weights: wr.values, basis: basis.values)
            cascade.stages.append(stage)

            // 6. Move every sample by what the (reduced) stage predicts, exactly as at run time.
            let increments = BLAS.multiply(BLAS.multiply(fitted, v), basis)
            for i in 0..<count {
                let tr = SimilarityTransform(a: frames[i].x, b: frames[i].y, tx: 0, ty: 0)
                for j in 0..<n {
                    shapes[i][j] += tr.applyLinear(SIMD2(increments[i, 2 * j], increments[i, 2 * j + 1]))
                }
            }
            let after = Self.meanNME(shapes, faces: faces, sampleFace: sampleFace)
            let rep = StageReport(stage: k, stride: stride, ridge: ridge, ridgeScores: scores, rank: rank, nmeBefore: before, nmeAfter: after)
            reports.append(rep)
            log(String(format: "stage %d stride %.2f: ridge %.4g, rank %d, train NME %.4f -> %.4f", k + 1, stride, ridge, rank, before, after))
            progress(TrainingProgress(fraction: Double(k + 1) / Double(stageCount), phase: "stage \(k + 1)/\(stageCount) done"))
        }
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

    /// FNV-1a of the face's original name: stable fold membership across runs.
    static func isRidgeFold(_ name: String, percent: Int) -> Bool {
        let base = name.hasSuffix("#mirror") ? String(name.dropLast(7)) : name
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in base.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int((h >> 7) % 100) < percent
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
