import FaceData
import FacialMetrics
import Foundation
import Imaging
import LandmarkTraining

/// Trains `EyeglassesModel` on faces68 (`lorgnette train eyeglasses`).
///
/// Samples per face of the photo-level training split (each also mirrored): the photo as it is —
/// a positive when the hand labels say glasses or sunglasses, a negative when they list nothing,
/// left out when unsure — and, for faces without glasses, `renderedPerFace` copies with a random pair
/// of the renderable glasses drawn on (positives). Real positives are repeated `realPositiveWeight`
/// times: they are the few samples of real frames, lenses and reflections, and the thing to generalise to.
///
/// Threshold: the training faces are split again by photo (one fifth, `tuneFold`); a model fitted on
/// the other four fifths scores the fifth, and the threshold is the lowest score at which at most
/// `falseAlarmRate` of the fifth's bare faces score as glasses. The shipped weights are then fitted on
/// the whole training split with that threshold. Deterministic for a seed.
public struct EyeglassesTrainer {
    public struct Options: Sendable {
        public var renderedPerFace = 2
        public var realPositiveWeight = 4
        public var lambda: Float = 1e-3
        public var iterations = 600
        public var falseAlarmRate: Double = 0.01
        public var seed: UInt64 = 1
        public var limit = 0
        /// Which fifth of the photos tunes the threshold (0-4; the shipped model uses 0). The others
        /// give a cross-validated estimate of the recipe (`train eyeglasses --tune-fold K`).
        public var tuneFold: UInt64 = 0
        public init() {}
    }

    public struct Sample {
        public var features: [Float]
        public var positive: Bool
        public var rendered: Bool
        /// Held out for the threshold (one fifth of the photos).
        public var tune: Bool
    }

    public struct Report: Sendable {
        public var threshold: Float = 0
        public var samples = 0, realPositives = 0, renderedPositives = 0, negatives = 0
        public var tuneFalseAlarms = 0.0, tuneRealDetected = 0.0, tuneRenderedDetected = 0.0
        public var tuneNegatives = 0, tuneRealPositives = 0, tuneRendered = 0
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    /// Gathers the samples of `entries` (loader: the photo in colour and its annotation).
    public func samples(_ entries: [FaceDataset.Entry], labels: EyeglassesLabels, maker: inout EyeglassesSampleMaker,
                        load: (FaceDataset.Entry) throws -> (RGBImage, [SIMD2<Float>]),
                        progress: (Int, Int) -> Void = { _, _ in }) throws -> [Sample] {
        var rng = SplitMix64(seed: options.seed)
        var out: [Sample] = []
        let list = options.limit > 0 ? Array(entries.prefix(options.limit)) : entries
        for (n, entry) in list.enumerated() {
            progress(n, list.count)
            let label = labels.label(entry.name)
            if label == .unsure { continue }
            let (rgb, points) = try load(entry)
            let tune = Self.isTuneFold(entry.sourcePhoto, fold: options.tuneFold)
            let realPositive = label == .glasses || label == .sunglasses
            for f in maker.features(GrayImage(luma: rgb), start: points) {
                for _ in 0..<(realPositive ? options.realPositiveWeight : 1) {
                    out.append(Sample(features: f, positive: realPositive, rendered: false, tune: tune))
                }
            }
            guard !realPositive, !maker.glasses.isEmpty else { continue }
            for _ in 0..<options.renderedPerFace {
                let g = Int(rng.next() % UInt64(maker.glasses.count))
                guard let composite = maker.composite(rgb, points: points, glassesIndex: g, rng: &rng) else { continue }
                for f in maker.features(GrayImage(luma: composite), start: points) {
                    out.append(Sample(features: f, positive: true, rendered: true, tune: tune))
                }
            }
        }
        return out
    }

    /// One fifth of the source photos (FNV-1a of the path, a different cut from FaceDataset's split).
    static func isTuneFold(_ photo: String, fold: UInt64) -> Bool {
        nameHash(photo + "#eyeglasses") % 5 == fold
    }

    /// Fits the weights on every sample, the threshold on the tune fold (see the type's comment).
    public func train(_ samples: [Sample]) -> (EyeglassesModel, Report) {
        var report = Report()
        report.samples = samples.count
        report.realPositives = samples.filter { $0.positive && !$0.rendered }.count
        report.renderedPositives = samples.filter(\.rendered).count
        report.negatives = samples.filter { !$0.positive }.count

        let fold = fit(samples.filter { !$0.tune })
        let tune = samples.filter(\.tune)
        let negatives = tune.filter { !$0.positive }.map { fold.score($0.features) }.sorted()
        // The lowest threshold that lets at most `falseAlarmRate` of the fold's bare faces through.
        let allowed = Int((Double(negatives.count) * options.falseAlarmRate).rounded(.down))
        let threshold = negatives.isEmpty ? 0 : max(0, negatives[negatives.count - 1 - allowed] + 1e-4)
        func rate(_ s: [Sample]) -> Double {
            s.isEmpty ? 0 : Double(s.filter { fold.score($0.features) >= threshold }.count) / Double(s.count)
        }
        report.threshold = threshold
        report.tuneNegatives = negatives.count
        report.tuneFalseAlarms = rate(tune.filter { !$0.positive })
        report.tuneRealPositives = tune.filter { $0.positive && !$0.rendered }.count
        report.tuneRealDetected = rate(tune.filter { $0.positive && !$0.rendered })
        report.tuneRendered = tune.filter(\.rendered).count
        report.tuneRenderedDetected = rate(tune.filter(\.rendered))

        let all = fit(samples)
        var model = EyeglassesModel(weights: all.weights, threshold: threshold)
        model.metadata = [
            "lambda": String(options.lambda), "iterations": String(options.iterations),
            "rendered_per_face": String(options.renderedPerFace), "real_positive_weight": String(options.realPositiveWeight),
            "false_alarm_rate": String(options.falseAlarmRate), "seed": String(options.seed),
            "samples": "\(report.negatives) negatives, \(report.realPositives) real positives (x\(options.realPositiveWeight), mirrored), \(report.renderedPositives) rendered",
            "tune_fold": String(format: "%d bare faces %.2f %% false alarms, %d real glasses %.1f %% found, %d rendered %.1f %% found",
                                report.tuneNegatives, report.tuneFalseAlarms * 100, report.tuneRealPositives, report.tuneRealDetected * 100,
                                report.tuneRendered, report.tuneRenderedDetected * 100),
        ]
        return (model, report)
    }

    private func fit(_ s: [Sample]) -> EyeglassesModel {
        let d = EyeglassesFeatures.count
        var x = [Float](); x.reserveCapacity(s.count * d)
        for sample in s { x.append(contentsOf: sample.features) }
        let w = TrackingConfidenceTrainer.logisticRegression(x: x, y: s.map { $0.positive ? 1 : -1 }, d: d,
                                                             lambda: options.lambda, iterations: options.iterations)
        return EyeglassesModel(weights: w, threshold: 0)
    }
}
