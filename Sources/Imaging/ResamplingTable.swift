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

    /// Whether every output has exactly two taps (the bilinear fast path).
    var allTwoTaps: Bool { maxTaps == 2 && !count.contains { $0 != 2 } }

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
        let ratio = Double(source) / Double(target)
        var raw: [Double] = []
        for i in 0 ..< target {
            let a = Double(i) * ratio, b = Double(i + 1) * ratio
            var j0 = Int(a.rounded(.down)), j1 = Int(b.rounded(.up)) - 1
            j0 = min(max(j0, 0), source - 1); j1 = min(max(j1, j0), source - 1)
            raw.removeAll(keepingCapacity: true)
            for j in j0 ... j1 {
                let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                raw.append(max(0, overlap) / ratio)
            }
            // Quantise by largest remainders (floor every weight, then give the missing units to
            // the taps with the largest fractional parts) so the weights sum to exactly `one`
            // with no tap off by more than one unit, whatever the ratio. Then drop zero taps at
            // both ends.
            let scaled = raw.map { $0 * Double(one) }
            var q = scaled.map { Int32($0.rounded(.down)) }
            let missing = Int(one - q.reduce(0, +))
            if missing > 0 {
                let order = q.indices.sorted { (scaled[$0] - Double(q[$0])) > (scaled[$1] - Double(q[$1])) }
                for k in 0 ..< missing { q[order[k % order.count]] += 1 }
            }
            var lo = 0, hi = q.count - 1
            while lo < hi && q[lo] == 0 { lo += 1 }
            while hi > lo && q[hi] == 0 { hi -= 1 }
            q = Array(q[lo ... hi])
            t.first.append(Int32(j0 + lo)); t.offset.append(Int32(t.weights.count)); t.count.append(Int32(q.count))
            t.weights.append(contentsOf: q)
            t.maxTaps = max(t.maxTaps, q.count)
        }
        return t
    }
}
