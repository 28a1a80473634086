import Foundation

/// One aggregated metric (millimetres): the robust mean over accepted frames, their SD, how many
/// frames, and an ≈ 95 % band.
///
/// The band's half-width is `1.96 · √(SD²/N + (relSD · mean)² + floor²)`: the standard error of the
/// mean over frames, the scale's systematic uncertainty (`MetricScale.relativeSD`, plus any
/// metric-specific model term), and — for fewer than 5 frames, where SD says little — a per-frame
/// noise floor (half a pixel per pupil at the measured scale).
public struct MetricSummary: Sendable, Equatable {
    public var value: Double
    public var sd: Double
    public var n: Int
    public var ci95: (Double, Double)

    public init(value: Double, sd: Double, n: Int, ci95: (Double, Double)) {
        self.value = value; self.sd = sd; self.n = n; self.ci95 = ci95
    }

    public static func == (a: MetricSummary, b: MetricSummary) -> Bool {
        a.value == b.value && a.sd == b.sd && a.n == b.n && a.ci95 == b.ci95
    }

    /// Half-width of the band.
    public var plusMinus: Double { (ci95.1 - ci95.0) / 2 }

    /// Robust aggregation: values further than 3 robust SDs (1.4826 · MAD, at least 0.1 % of the
    /// median) from the median are dropped, then mean and SD of the rest. Nil for no finite value.
    public static func aggregate(_ values: [Double], relativeSD: Double, noiseFloorSD: Double = 0) -> MetricSummary? {
        let finite = values.filter { $0.isFinite }
        guard !finite.isEmpty else { return nil }
        let sorted = finite.sorted()
        let median = sorted[sorted.count / 2]
        let mad = finite.map { abs($0 - median) }.sorted()[finite.count / 2] * 1.4826
        let limit = 3 * max(mad, abs(median) * 1e-3)
        let kept = finite.filter { abs($0 - median) <= limit }
        let n = kept.count
        let mean = kept.reduce(0, +) / Double(n)
        let sd = n > 1 ? (kept.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(n - 1)).squareRoot() : 0
        let floor = n < 5 ? noiseFloorSD : 0
        let half = 1.96 * (sd * sd / Double(n) + relativeSD * relativeSD * mean * mean + floor * floor).squareRoot()
        return MetricSummary(value: mean, sd: sd, n: n, ci95: (mean - half, mean + half))
    }
}
