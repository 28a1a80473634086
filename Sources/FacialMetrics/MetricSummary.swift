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
        let scratch = AggregationScratch()
        scratch.reserve(values.count)
        for (i, v) in values.enumerated() { scratch.values[i] = v }
        return aggregate(scratch, count: values.count, relativeSD: relativeSD, noiseFloorSD: noiseFloorSD)
    }

    /// `aggregate` of `scratch.values[0 ..< count]`, in `scratch` (no allocation).
    static func aggregate(_ scratch: AggregationScratch, count: Int, relativeSD: Double, noiseFloorSD: Double) -> MetricSummary? {
        let values = scratch.values, work = scratch.work
        var m = 0
        for i in 0..<count where values[i].isFinite { values[m] = values[i]; m += 1 }
        guard m > 0 else { return nil }
        for i in 0..<m { work[i] = values[i] }
        insertionSortLarge(work, m)
        let median = work[m / 2]
        for i in 0..<m { work[i] = abs(values[i] - median) }
        insertionSortLarge(work, m)
        let mad = work[m / 2] * 1.4826
        let limit = 3 * max(mad, abs(median) * 1e-3)
        var n = 0, sum = 0.0
        for i in 0..<m where abs(values[i] - median) <= limit { sum += values[i]; n += 1 }
        let mean = sum / Double(n)
        var ss = 0.0
        for i in 0..<m where abs(values[i] - median) <= limit { ss += (values[i] - mean) * (values[i] - mean) }
        let sd = n > 1 ? (ss / Double(n - 1)).squareRoot() : 0
        let floor = n < 5 ? noiseFloorSD : 0
        let half = 1.96 * (sd * sd / Double(n) + relativeSD * relativeSD * mean * mean + floor * floor).squareRoot()
        return MetricSummary(value: mean, sd: sd, n: n, ci95: (mean - half, mean + half))
    }
}

/// Ascending sort of `count` values in place without allocating: insertion sort for short runs,
/// heapsort beyond (sessions can hold thousands of frames).
func insertionSortLarge(_ a: UnsafeMutablePointer<Double>, _ count: Int) {
    guard count > 32 else { insertionSort(a, count); return }
    func siftDown(_ start: Int, _ end: Int) {
        var root = start
        while 2 * root + 1 < end {
            var child = 2 * root + 1
            if child + 1 < end && a[child] < a[child + 1] { child += 1 }
            guard a[root] < a[child] else { return }
            let t = a[root]; a[root] = a[child]; a[child] = t
            root = child
        }
    }
    var start = count / 2 - 1
    while start >= 0 { siftDown(start, count); start -= 1 }
    var end = count - 1
    while end > 0 {
        let t = a[0]; a[0] = a[end]; a[end] = t
        siftDown(0, end)
        end -= 1
    }
}

/// Scratch buffers for `MetricSummary.aggregate` and `MeasurementReport`, grown (by doubling) to
/// the largest frame count seen. Not thread-safe.
public final class AggregationScratch {
    private(set) var values: UnsafeMutablePointer<Double>
    private(set) var work: UnsafeMutablePointer<Double>
    private var capacity: Int

    public init() {
        capacity = 64
        values = .allocate(capacity: capacity)
        work = .allocate(capacity: capacity)
    }

    deinit { values.deallocate(); work.deallocate() }

    func reserve(_ count: Int) {
        guard count > capacity else { return }
        capacity = max(count, 2 * capacity)
        values.deallocate(); work.deallocate()
        values = .allocate(capacity: capacity)
        work = .allocate(capacity: capacity)
    }
}
