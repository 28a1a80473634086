/// The sums over a face's samples that the dominant-light search needs for any direction d: with
/// t = n·d, Σtᵏ (k ≤ 4) and the luminance-weighted Σl·tᵏ (k ≤ 2) are polynomials in d whose
/// coefficients are the moments Σ nₓᵃ n_yᵇ n_zᶜ (a + b + c = k) of the normals. Gathered once per
/// fit (35 sums, 10 weighted), they make each direction tried cost a few dozen operations instead of
/// a pass over every sample (the search tries about 250 directions on 350 samples). Double
/// precision: the least-squares determinant n·Σf² − (Σf)² cancels. Storage is made once; `gather`
/// allocates nothing.
struct NormalMoments {
    /// How many monomials of degree ≤ 4 in three variables, and of degree ≤ 2 (those also weighted
    /// by luminance); `degreeStart[k]` is where degree k begins in `monomials`' order.
    static let count = 35, weightedCount = 10
    private static let degreeStart = [0, 1, 4, 10, 20, 35]
    /// The multinomial coefficient k!/(a! b! c!) of each monomial nₓᵃ n_yᵇ n_zᶜ, in `monomials`' order.
    private static let coefficients: [Double] = [
        1,
        1, 1, 1,
        1, 2, 2, 1, 2, 1,
        1, 3, 3, 3, 6, 3, 1, 3, 3, 1,
        1, 4, 4, 6, 12, 6, 4, 12, 12, 4, 1, 4, 6, 4, 1,
    ]

    private var sums = [Double](repeating: 0, count: NormalMoments.count)
    private var weighted = [Double](repeating: 0, count: NormalMoments.weightedCount)

    /// The monomials of (x, y, z) of degree 0...4: for each degree k, exponents of x from k down, then
    /// of y from what is left down.
    @inline(__always)
    private static func monomials(_ x: Double, _ y: Double, _ z: Double, into m: UnsafeMutablePointer<Double>) {
        let x2 = x * x, y2 = y * y, z2 = z * z
        m[0] = 1
        m[1] = x; m[2] = y; m[3] = z
        m[4] = x2; m[5] = x * y; m[6] = x * z; m[7] = y2; m[8] = y * z; m[9] = z2
        m[10] = x2 * x; m[11] = x2 * y; m[12] = x2 * z; m[13] = x * y2; m[14] = x * y * z
        m[15] = x * z2; m[16] = y2 * y; m[17] = y2 * z; m[18] = y * z2; m[19] = z2 * z
        m[20] = x2 * x2; m[21] = x2 * x * y; m[22] = x2 * x * z; m[23] = x2 * y2; m[24] = x2 * y * z
        m[25] = x2 * z2; m[26] = x * y2 * y; m[27] = x * y2 * z; m[28] = x * y * z2; m[29] = x * z2 * z
        m[30] = y2 * y2; m[31] = y2 * y * z; m[32] = y2 * z2; m[33] = y * z2 * z; m[34] = z2 * z2
    }

    /// Sets the moments to those of `n` samples (unit normals and their luminance).
    mutating func gather(normals: UnsafePointer<SIMD3<Float>>, luminance l: UnsafePointer<Float>, count n: Int) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.count) { m in
            let mp = m.baseAddress!
            sums.withUnsafeMutableBufferPointer { s in
            weighted.withUnsafeMutableBufferPointer { w in
                for i in 0..<Self.count { s[i] = 0 }
                for i in 0..<Self.weightedCount { w[i] = 0 }
                for k in 0..<n {
                    Self.monomials(Double(normals[k].x), Double(normals[k].y), Double(normals[k].z), into: mp)
                    let lum = Double(l[k])
                    for i in 0..<Self.count { s[i] += mp[i] }
                    for i in 0..<Self.weightedCount { w[i] += mp[i] * lum }
                }
            }
            }
        }
    }

    /// For f(t) = c0 + c1 t + c2 t² along d: Σf, Σf² and Σf·l over the samples.
    func sums(along d: SIMD3<Float>, c0: Double, c1: Double, c2: Double) -> (sf: Double, sff: Double, sfl: Double) {
        // Σtᵏ for k = 0...4 and Σl·tᵏ for k = 0...2: each monomial of d, times its coefficient and moment.
        var t = SIMD8<Double>(), lt = SIMD4<Double>()
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.count) { m in
            let mp = m.baseAddress!
            Self.monomials(Double(d.x), Double(d.y), Double(d.z), into: mp)
            Self.coefficients.withUnsafeBufferPointer { c in
            sums.withUnsafeBufferPointer { s in
            weighted.withUnsafeBufferPointer { w in
                for k in 0...4 {
                    var sk = 0.0, wk = 0.0
                    for i in Self.degreeStart[k]..<Self.degreeStart[k + 1] {
                        let dm = c[i] * mp[i]
                        sk += dm * s[i]
                        if k <= 2 { wk += dm * w[i] }
                    }
                    t[k] = sk
                    if k <= 2 { lt[k] = wk }
                }
            }
            }
            }
        }
        let sf = c0 * t[0] + c1 * t[1] + c2 * t[2]
        let sff = c0 * c0 * t[0] + 2 * c0 * c1 * t[1] + (c1 * c1 + 2 * c0 * c2) * t[2] + 2 * c1 * c2 * t[3] + c2 * c2 * t[4]
        let sfl = c0 * lt[0] + c1 * lt[1] + c2 * lt[2]
        return (sf, sff, sfl)
    }
}
