import FaceData
import FaceMarkup
import FaceDetection
import FaceTracking
import Foundation
import Landmarks
import LinearAlgebra
import Media

/// Trains a `TrackingConfidenceModel` for a landmark cascade from annotated faces.
///
/// Samples are *fits*, labelled by how far the fitted shape lands from the annotation (inter-ocular
/// NME of the 68 points): < `positiveNME` is a face, > `negativeNME` is not, in between is dropped.
/// Per face (photo-level training split of `FaceDataset`):
/// - starts a tracker or detector meets on a face: the canonical box jittered ±5 % / ±8 % (detector
///   mode), the annotated shape moved by ±6 % of the face, ±6 % in scale and ±6° in roll (tracking mode);
/// - starts a tracker meets after drifting: boxes shifted by 0.35–0.8 face sides, boxes 0.35–0.6 or
///   1.8–2.4 times the face placed on it (the mouth, an eye, the whole head), the annotated shape
///   shifted by 0.3–0.6 faces (tracking mode), and background windows away from the face (not in AFW
///   crops, which may hold other, unannotated faces).
/// The classifier is an L2-regularised logistic regression with classes weighted equally, on the
/// centred features, by Nesterov's accelerated gradient with a step from the power-iteration
/// estimate of the loss's curvature. The threshold is the one that keeps `keepRate` of the
/// validation positives. Deterministic for a given seed.
public struct TrackingConfidenceTrainer {
    public struct Options: Sendable {
        public var positiveNME: Float = 0.10
        public var negativeNME: Float = 0.25
        public var lambda: Float = 1e-3
        public var iterations = 400
        public var keepRate: Float = 0.995
        public var seed: UInt64 = 1
        /// Use at most this many faces of each split (0: all).
        public var limit = 0
        public init() {}
    }

    /// Accuracy of the trained model on the held-out validation faces.
    public struct Report: Sendable {
        public var trainingPositives = 0, trainingNegatives = 0
        public var validationPositives = 0, validationNegatives = 0
        /// Share of validation positives at or above the threshold, negatives below it.
        public var validationKept: Float = 0, validationRejected: Float = 0
        public var validationAUC: Float = 0
        public var threshold: Float = 0
    }

    public let cascade: LandmarkCascade
    public var options: Options

    public init(cascade: LandmarkCascade, options: Options = Options()) {
        self.cascade = cascade
        self.options = options
    }

    struct SampleSet {
        var features: [Float] = []
        var labels: [Float] = []
    }

    /// Trains on `dataset`; `progress` is called with (faces done, faces total).
    public func train(dataset: FaceDataset, decoder: StillImageDecoding, progress: (Int, Int) -> Void = { _, _ in }) throws
        -> (TrackingConfidenceModel, Report) {
        var trainEntries = dataset.entries(.training)
        if options.limit > 0 { trainEntries = Array(trainEntries.prefix(options.limit)) }
        var valEntries = dataset.entries(.validation)
        if options.limit > 0 { valEntries = Array(valEntries.prefix(options.limit)) }
        var rng = SplitMix64(seed: options.seed)
        var train = SampleSet(), val = SampleSet()
        let total = trainEntries.count + valEntries.count
        var done = 0
        for (entries, isVal) in [(trainEntries, false), (valEntries, true)] {
            for entry in entries {
                let face = try FaceDataset.load(entry, decoder: decoder)
                if isVal {
                    collect(face, allowBackground: !entry.name.hasPrefix("afw_"), rng: &rng, into: &val)
                } else {
                    collect(face, allowBackground: !entry.name.hasPrefix("afw_"), rng: &rng, into: &train)
                }
                done += 1
                progress(done, total)
            }
        }
        let d = cascade.featureCount
        var report = Report()
        report.trainingPositives = train.labels.filter { $0 > 0 }.count
        report.trainingNegatives = train.labels.count - report.trainingPositives
        report.validationPositives = val.labels.filter { $0 > 0 }.count
        report.validationNegatives = val.labels.count - report.validationPositives
        guard report.trainingPositives > 0, report.trainingNegatives > 0 else {
            throw LandmarkTrainer.TrainingError(description: "tracking confidence training: no positives or no negatives")
        }
        let weights = Self.logisticRegression(x: train.features, y: train.labels, d: d, lambda: options.lambda, iterations: options.iterations)
        var model = TrackingConfidenceModel(weights: weights, threshold: 0.5, landmarkFingerprint: TrackingConfidenceModel.fingerprint(of: cascade))
        // Threshold and accuracy on validation (training scores if there is no validation split).
        let eval = report.validationPositives > 0 && report.validationNegatives > 0 ? val : train
        var pos: [Float] = [], neg: [Float] = []
        for i in eval.labels.indices {
            let p = model.probability(Array(eval.features[(i * d)..<((i + 1) * d)]))
            if eval.labels[i] > 0 { pos.append(p) } else { neg.append(p) }
        }
        pos.sort()
        let cut = pos[min(pos.count - 1, max(0, Int((1 - options.keepRate) * Float(pos.count))))]
        let threshold = min(max(cut, 0.01), 0.9)
        report.threshold = threshold
        report.validationKept = Float(pos.filter { $0 >= threshold }.count) / Float(pos.count)
        report.validationRejected = Float(neg.filter { $0 < threshold }.count) / Float(max(neg.count, 1))
        var wins: Double = 0
        let negSorted = neg.sorted()
        for p in pos {
            // Pairs (positive, negative) ranked right, ties half (the AUC's Mann–Whitney form).
            var lo = 0, hi = negSorted.count
            while lo < hi { let m = (lo + hi) / 2; if negSorted[m] < p { lo = m + 1 } else { hi = m } }
            var eq = lo
            while eq < negSorted.count && negSorted[eq] == p { eq += 1 }
            wins += Double(lo) + 0.5 * Double(eq - lo)
        }
        report.validationAUC = Float(wins / Double(max(pos.count * negSorted.count, 1)))
        model = TrackingConfidenceModel(weights: weights, threshold: threshold, landmarkFingerprint: model.landmarkFingerprint, metadata: [
            "training_samples": "\(report.trainingPositives) positives, \(report.trainingNegatives) negatives",
            "validation": String(format: "AUC %.4f, kept %.2f %% of %d positives, rejected %.2f %% of %d negatives",
                                 report.validationAUC, 100 * report.validationKept, report.validationPositives,
                                 100 * report.validationRejected, report.validationNegatives),
            "options": "positive_nme=\(options.positiveNME) negative_nme=\(options.negativeNME) lambda=\(options.lambda) iterations=\(options.iterations) keep_rate=\(options.keepRate) seed=\(options.seed)",
            "landmark_model": cascade.metadata["training"] ?? cascade.metadata["command"] ?? "",
        ])
        return (model, report)
    }

    /// Fits from every kind of start on one face and appends the labelled ones.
    func collect(_ face: AnnotatedFace, allowBackground: Bool, rng: inout SplitMix64, into set: inout SampleSet) {
        let truth = face.landmarks
        let iod = IBUG68.interOcular(truth)
        guard iod > 4 else { return }
        let box = FaceBox.canonical(landmarks: truth)
        let side = box.width
        let w = Float(face.image.width), h = Float(face.image.height)
        func u(_ a: Float, _ b: Float) -> Float { a + (b - a) * Float(Double(rng.next() >> 11) / Double(1 << 53)) }
        func boxAt(_ c: SIMD2<Float>, _ s: Float) -> FaceBox { FaceBox(x: c.x - s / 2, y: c.y - s / 2, width: s, height: s) }
        func moved(_ shape: [SIMD2<Float>], shift: SIMD2<Float>, scale: Float, roll: Float) -> [SIMD2<Float>] {
            let c = shape.reduce(SIMD2<Float>(0, 0), +) / Float(shape.count)
            let cs = cosf(roll) * scale, sn = sinf(roll) * scale
            return shape.map { p in let d = p - c; return c + shift + SIMD2(cs * d.x - sn * d.y, sn * d.x + cs * d.y) }
        }
        func add(_ fit: LandmarkCascade.FittedShape) {
            var err: Float = 0
            for i in truth.indices { let d = fit.landmarks[i] - truth[i]; err += (d * d).sum().squareRoot() }
            let nme = err / Float(truth.count) / iod
            let label: Float
            if nme < options.positiveNME { label = 1 } else if nme > options.negativeNME { label = -1 } else { return }
            guard fit.features.allSatisfy(\.isFinite) else { return }
            set.features.append(contentsOf: fit.features)
            set.labels.append(label)
        }
        func direction() -> SIMD2<Float> { let a = u(0, 2 * .pi); return SIMD2(cosf(a), sinf(a)) }
        // On the face.
        for _ in 0..<2 {
            let c = box.centre + side * SIMD2(u(-0.05, 0.05), u(-0.05, 0.05))
            add(cascade.landmarksWithFeatures(in: face.image, box: boxAt(c, side * u(0.92, 1.08))))
        }
        for _ in 0..<2 {
            let start = moved(truth, shift: side * SIMD2(u(-0.06, 0.06), u(-0.06, 0.06)), scale: u(0.94, 1.06), roll: u(-0.1, 0.1))
            add(cascade.trackWithFeatures(in: face.image, previous: start))
        }
        // Off the face.
        add(cascade.landmarksWithFeatures(in: face.image, box: boxAt(box.centre + side * u(0.35, 0.8) * direction(), side * u(0.7, 1.3))))
        let mouth = (truth[48] + truth[54]) / 2
        add(cascade.landmarksWithFeatures(in: face.image, box: boxAt(mouth + side * SIMD2(u(-0.1, 0.1), u(-0.1, 0.1)), side * u(0.35, 0.6))))
        let eye = u(0, 1) < 0.5 ? IBUG68.eyeCentres(truth).left : IBUG68.eyeCentres(truth).right
        add(cascade.landmarksWithFeatures(in: face.image, box: boxAt(eye, side * u(0.35, 0.6))))
        add(cascade.landmarksWithFeatures(in: face.image, box: boxAt(box.centre + side * SIMD2(u(-0.2, 0.2), u(-0.2, 0.2)), side * u(1.8, 2.4))))
        add(cascade.trackWithFeatures(in: face.image, previous: moved(truth, shift: side * u(0.3, 0.6) * direction(), scale: u(0.8, 1.2), roll: u(-0.2, 0.2))))
        if allowBackground {
            // Windows in the crop's corners that do not overlap the face.
            for _ in 0..<2 {
                let s = side * u(0.4, 0.8)
                let c = SIMD2(u(s / 2, w - s / 2), u(s / 2, h - s / 2))
                let b = boxAt(c, s)
                guard b.iou(box) < 0.05, abs(c.x - box.centre.x) > (s + side) / 2 || abs(c.y - box.centre.y) > (s + side) / 2 else { continue }
                add(cascade.landmarksWithFeatures(in: face.image, box: b))
            }
        }
    }

    /// Minimises Σᵢ cᵢ log(1 + exp(−yᵢ w·xᵢ)) + λ/2 ‖w‖² (bias = the weight of the constant last feature,
    /// not regularised), class weights cᵢ summing to ½ per class. Features are centred internally and
    /// the centring folded back into the bias.
    public static func logisticRegression(x: [Float], y: [Float], d: Int, lambda: Float, iterations: Int) -> [Float] {
        let n = y.count
        var mean = [Float](repeating: 0, count: d)
        for i in 0..<n { for k in 0..<(d - 1) { mean[k] += x[i * d + k] } }
        for k in 0..<(d - 1) { mean[k] /= Float(n) }
        var z = x
        for i in 0..<n { for k in 0..<(d - 1) { z[i * d + k] -= mean[k] } }
        let positives = y.filter { $0 > 0 }.count
        let c = y.map { $0 > 0 ? 0.5 / Float(positives) : 0.5 / Float(n - positives) }

        func scores(_ w: [Float]) -> [Float] {
            var s = [Float](repeating: 0, count: n)
            z.withUnsafeBufferPointer { zp in w.withUnsafeBufferPointer { wp in
                for i in 0..<n { s[i] = dot(zp.baseAddress! + i * d, wp.baseAddress!, d) }
            }}
            return s
        }
        func accumulate(_ coef: [Float]) -> [Float] {
            var g = [Float](repeating: 0, count: d)
            z.withUnsafeBufferPointer { zp in g.withUnsafeMutableBufferPointer { gp in
                for i in 0..<n where coef[i] != 0 {
                    let row = zp.baseAddress! + i * d, a = coef[i]
                    for k in 0..<d { gp[k] += a * row[k] }
                }
            }}
            return g
        }
        func gradient(_ w: [Float]) -> [Float] {
            let s = scores(w)
            var coef = [Float](repeating: 0, count: n)
            for i in 0..<n { coef[i] = -c[i] * y[i] / (1 + expf(y[i] * s[i])) }
            var g = accumulate(coef)
            for k in 0..<(d - 1) { g[k] += lambda * w[k] }
            return g
        }
        // Curvature bound: ¼ λmax(Σ cᵢ zᵢ zᵢᵀ) + λ, by power iteration.
        var v = [Float](repeating: 1 / Float(d).squareRoot(), count: d)
        var lmax: Float = 1
        for _ in 0..<15 {
            let s = scores(v)
            let u = accumulate((0..<n).map { c[$0] * s[$0] })
            let norm = u.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard norm > 0 else { break }
            lmax = norm
            v = u.map { $0 / norm }
        }
        let step = 1 / (0.25 * lmax * 1.1 + lambda)
        var w = [Float](repeating: 0, count: d), previous = w
        for t in 0..<iterations {
            let momentum = Float(t) / Float(t + 3)
            let look = (0..<d).map { w[$0] + momentum * (w[$0] - previous[$0]) }
            let g = gradient(look)
            previous = w
            w = (0..<d).map { look[$0] - step * g[$0] }
        }
        // Back to raw features: w·(x − μ) = w·x − w·μ, the constant feature carries −w·μ.
        var bias = w[d - 1]
        for k in 0..<(d - 1) { bias -= w[k] * mean[k] }
        w[d - 1] = bias
        return w
    }
}

