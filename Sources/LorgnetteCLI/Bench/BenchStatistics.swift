import Foundation

/// Order statistics of one latency sample (one value per frame), in milliseconds.
///
/// Percentiles are nearest-rank: p50 of 20 frames is the 10th smallest. Sorting keeps the math
/// obvious; samples are a few hundred values.
struct LatencySummary: Codable, Equatable {
    var count: Int
    var mean: Double
    var p50: Double
    var p95: Double
    var p99: Double
    var max: Double

    /// `milliseconds`: one value per frame. An empty sample summarises to zeros.
    init(_ milliseconds: [Double]) {
        let sorted = milliseconds.sorted()
        count = sorted.count
        guard !sorted.isEmpty else { mean = 0; p50 = 0; p95 = 0; p99 = 0; max = 0; return }
        mean = sorted.reduce(0, +) / Double(sorted.count)
        p50 = Self.percentile(sorted, 0.50)
        p95 = Self.percentile(sorted, 0.95)
        p99 = Self.percentile(sorted, 0.99)
        max = sorted[sorted.count - 1]
    }

    /// Nearest-rank percentile of an ascending sample (`fraction` in 0...1).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}

/// Clocks the bench reads around each stage: wall (monotonic) and the calling thread's CPU time,
/// which leaves out time other processes stole from the core, so it is the steadier of the two on
/// shared machines.
enum BenchClock {
    static func wallNanoseconds() -> UInt64 { read(CLOCK_MONOTONIC) }
    static func threadCPUNanoseconds() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    static func milliseconds(_ from: UInt64, _ to: UInt64) -> Double { Double(to &- from) / 1e6 }
}
