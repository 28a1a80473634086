extension LandmarkTrainer {
    /// Which ridge candidates (indices into a list of `count`, ascending strength) a between-face
    /// weight is tried at: ordinary ridge's choice `at` and its two neighbours, and with `extend`
    /// one step further out while the lowest error sits at the edge of those tried. A smaller γ
    /// leaves less between-face signal to shrink, so its best ridge may lie below the window: in
    /// issue 21's third round γ = 0.2 took the window's lower edge in every stage of both folds.
    /// Returns the indices tried, in the order `error` was called.
    static func ridgeWindow(count: Int, around at: Int, extend: Bool, error: (Int) throws -> Float) rethrows -> [Int] {
        var lo = max(0, at - 1), hi = min(count - 1, at + 1)
        var tried: [Int] = [], errors: [Int: Float] = [:]
        func judge(_ index: Int) throws { tried.append(index); errors[index] = try error(index) }
        for index in lo...hi { try judge(index) }
        func bestIndex() -> Int { tried.min { errors[$0]! < errors[$1]! }! }
        while extend, bestIndex() == lo, lo > 0 { lo -= 1; try judge(lo) }
        while extend, bestIndex() == hi, hi < count - 1 { hi += 1; try judge(hi) }
        return tried
    }
}
