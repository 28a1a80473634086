/// One axis of a separable resampling filter, precomputed: for each output index, a run of
/// contiguous source indices and their fixed-point weights.
///
/// Weights are integers summing to exactly `ResamplingTable.one` for every output, so a constant
/// image stays exactly constant and power-of-two averages (e.g. the 2x2 mean) are exact.
struct ResamplingTable: Sendable {
    /// Fixed-point unit of a weight (12 fractional bits).
    static let oneShift = 12
    static let one: Int32 = 1 << 12

    /// First source index of output i.
    var first: [Int32]
    /// Index into `weights` of output i's first tap.
    var offset: [Int32]
    /// Number of taps of output i.
    var count: [Int32]
    var weights: [Int32]
    /// Largest `count`.
    var maxTaps: Int

    /// The same filter with every output widened to exactly `maxTaps` taps by zero weights
    /// (shifting the run left at the right border), so kernels can use a fixed tap count
    /// without branches; `offset[i]` becomes `i * maxTaps`.
    func uniform(source: Int) -> ResamplingTable {
        let taps = maxTaps
        var t = ResamplingTable(first: [], offset: [], count: [], weights: [], maxTaps: taps)
        t.weights = [Int32](repeating: 0, count: first.count * taps)
        for i in 0 ..< first.count {
            let f = min(Int(first[i]), source - taps)
            let shift = Int(first[i]) - f
            for k in 0 ..< Int(count[i]) { t.weights[i * taps + shift + k] = weights[Int(offset[i]) + k] }
            t.first.append(Int32(f)); t.offset.append(Int32(i * taps)); t.count.append(Int32(taps))
        }
        return t
    }

    /// Bilinear interpolation under the pixel-centre convention: output pixel i samples the
    /// source at (i + 0.5) * source / target - 0.5, clamped to the first and last pixel centres.
    static func bilinear(source: Int, target: Int) -> ResamplingTable {
        var t = ResamplingTable(first: [], offset: [], count: [], weights: [], maxTaps: 0)
        t.first.reserveCapacity(target); t.offset.reserveCapacity(target); t.count.reserveCapacity(target)
        t.weights.reserveCapacity(2 * target)
        let ratio = Double(source) / Double(target)
        for i in 0 ..< target {
            var s = (Double(i) + 0.5) * ratio - 0.5
            if !(s > 0) { s = 0 }
            if s > Double(source - 1) { s = Double(source - 1) }
            t.offset.append(Int32(t.weights.count))
            if source == 1 {
                t.first.append(0); t.count.append(1); t.weights.append(one)
                continue
            }
            var i0 = Int(s.rounded(.down))
            if i0 >= source - 1 { i0 = source - 2 }
            let w1 = Int32((s - Double(i0)) * Double(one) + 0.5)
            t.first.append(Int32(i0)); t.count.append(2)
            t.weights.append(one - w1); t.weights.append(w1)
        }
        t.maxTaps = source == 1 ? 1 : 2
        return t
    }

    /// Area averaging (a box filter the width of one output pixel): output pixel i covers source
    /// span [i, i + 1) * source / target in pixel-edge coordinates, and each source pixel is
    /// weighted by the length of its overlap with that span. Works for any ratio; for upscaling it
    /// degenerates to nearest-neighbour with blended seams.
    static func area(source: Int, target: Int) -> ResamplingTable {
        var t = ResamplingTable(first: [], offset: [], count: [], weights: [], maxTaps: 0)
        t.first.reserveCapacity(target); t.offset.reserveCapacity(target); t.count.reserveCapacity(target)
        let ratio = Double(source) / Double(target)
        t.weights.reserveCapacity(target * (Int(ratio.rounded(.up)) + 1))
        // Scratch reused for every output: exact scaled weights and their quantised values.
        var scaled: [Double] = [], q: [Int32] = []
        for i in 0 ..< target {
            let a = Double(i) * ratio, b = Double(i + 1) * ratio
            var j0 = Int(a.rounded(.down)), j1 = Int(b.rounded(.up)) - 1
            j0 = min(max(j0, 0), source - 1); j1 = min(max(j1, j0), source - 1)
            scaled.removeAll(keepingCapacity: true); q.removeAll(keepingCapacity: true)
            var sum: Int32 = 0
            for j in j0 ... j1 {
                let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                let v = max(0, overlap) / ratio * Double(one)
                scaled.append(v)
                let f = Int32(v.rounded(.down))
                q.append(f)
                sum += f
            }
            // Quantise by largest remainders: every weight is floored, then the missing units go
            // one each to the taps with the largest fractional parts, so the weights sum to
            // exactly `one` and no tap is off by a whole unit, whatever the ratio.
            var missing = Int(one - sum)
            while missing > 0 {
                var best = 0, bestFraction = -1.0
                for k in 0 ..< q.count {
                    let fraction = scaled[k] - Double(q[k])
                    if fraction > bestFraction { best = k; bestFraction = fraction }
                }
                q[best] += 1
                missing -= 1
            }
            // Zero taps at either end (slivers below one unit) are dropped.
            var lo = 0, hi = q.count - 1
            while lo < hi && q[lo] == 0 { lo += 1 }
            while hi > lo && q[hi] == 0 { hi -= 1 }
            t.first.append(Int32(j0 + lo)); t.offset.append(Int32(t.weights.count)); t.count.append(Int32(hi - lo + 1))
            t.weights.append(contentsOf: q[lo ... hi])
            t.maxTaps = max(t.maxTaps, hi - lo + 1)
        }
        return t
    }
}
