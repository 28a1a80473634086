import FacialMetrics
import Foundation

/// What a set of coverage trials of one scale method says about its band: the fraction of measured
/// trials whose ≈ 95 % band held the truth (the bar: 93–97 % of at least 200), the band's half-widths,
/// the errors, and the RMS of the standardised errors (≈ 1 when the band's SD is right; a smaller
/// sample can test that where a coverage fraction would need hundreds of trials).
public struct BandCoverage: Sendable {
    public var method: ScaleMethod
    public var trials: Int
    public var measured: Int
    public var covered: Int
    public var coverage: Double { measured > 0 ? Double(covered) / Double(measured) : .nan }
    /// Half-width of the band (mm): median and 10th/90th percentiles.
    public var halfWidthMedian: Double
    public var halfWidthP10: Double
    public var halfWidthP90: Double
    /// Far PD error (mm): mean, RMS, and the fraction within ±1 mm (the card-app anchor: 60 %).
    public var errorMean: Double
    public var errorRMS: Double
    public var withinOneMM: Double
    public var standardisedRMS: Double
    /// Refusals by reason.
    public var refusals: [String: Int]

    public init(method: ScaleMethod, trials: [BandCoverageTrial]) {
        self.method = method
        self.trials = trials.count
        let m = trials.filter(\.measured)
        measured = m.count
        covered = m.filter { $0.covered == true }.count
        func percentile(_ v: [Double], _ p: Double) -> Double {
            guard !v.isEmpty else { return .nan }
            let s = v.sorted()
            return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
        }
        let widths = m.compactMap { $0.pdFar?.plusMinus }
        halfWidthMedian = percentile(widths, 0.5)
        halfWidthP10 = percentile(widths, 0.1)
        halfWidthP90 = percentile(widths, 0.9)
        let errors = m.compactMap(\.error)
        let n = Double(max(1, errors.count))
        errorMean = errors.reduce(0, +) / n
        errorRMS = (errors.map { $0 * $0 }.reduce(0, +) / n).squareRoot()
        withinOneMM = Double(errors.filter { abs($0) <= 1 }.count) / n
        let z = m.compactMap(\.standardisedError)
        standardisedRMS = (z.map { $0 * $0 }.reduce(0, +) / Double(max(1, z.count))).squareRoot()
        var r: [String: Int] = [:]
        for t in trials { if let why = t.refusal { r[why, default: 0] += 1 } }
        refusals = r
    }

    public var line: String {
        String(format: "%@: coverage %.1f %% (%d of %d measured, %d trials), band ± %.2f mm (p10 %.2f, p90 %.2f), error mean %+.2f RMS %.2f mm, within ±1 mm %.0f %%, standardised RMS %.2f",
               method.rawValue, 100 * coverage, covered, measured, trials, halfWidthMedian, halfWidthP10, halfWidthP90,
               errorMean, errorRMS, 100 * withinOneMM, standardisedRMS)
    }
}
