/// The k-th smallest of a set of numbers by quickselect (Hoare 1961, "Algorithm 65: FIND"):
/// the value `sorted()[k]` would give, found in expected linear time in a caller's buffer, which
/// it reorders, without the sort's allocations (the estimator takes three medians per frame).
enum OrderStatistic {
    /// The k-th smallest (0-based, k < count) of `values[0..<count]`; the values must not be NaN.
    static func select(_ values: UnsafeMutablePointer<Float>, count: Int, k: Int) -> Float {
        precondition(k >= 0 && k < count, "order statistic out of range")
        var lo = 0, hi = count - 1
        while lo < hi {
            // Median-of-three pivot: an element value, so both scans stop inside [lo, hi].
            let a = values[lo], b = values[lo + (hi - lo) / 2], c = values[hi]
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    let t = values[i]; values[i] = values[j]; values[j] = t
                    i += 1; j -= 1
                }
            }
            // [lo, j] ≤ pivot, [i, hi] ≥ pivot, and everything strictly between equals the pivot.
            if k <= j { hi = j } else if k >= i { lo = i } else { return values[k] }
        }
        return values[k]
    }
}
