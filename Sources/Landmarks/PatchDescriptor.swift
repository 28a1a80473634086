/// Computes one landmark's descriptor (see `DescriptorSpec`) from a `FaceCrop`.
///
/// The grid is centred on the landmark and laid along `axisX` (image pixels per grid step along the
/// reference frame's x axis) and its perpendicular, so it follows the face's scale and roll. Gradient
/// magnitudes vote bilinearly into the two nearest orientation bins and the nearest 2x2 cells
/// (SIFT's trilinear interpolation); the result is L2-normalised, clipped at 0.2 and renormalised.
struct PatchDescriptor {
    let spec: DescriptorSpec
    /// Per gradient column/row: lower cell index, upper cell index (−1 when outside) and upper weight.
    private let cellLo: [Int]
    private let cellHi: [Int]
    private let cellW: [Float]
    var samples: [Float]
    /// Histograms on a (cells + 2)² grid whose border absorbs votes that fall outside the patch.
    var padded: [Float]

    init(spec: DescriptorSpec) {
        self.spec = spec
        let g = spec.cells * spec.cellSamples
        var lo: [Int] = [], hi: [Int] = [], w: [Float] = []
        for k in 0..<g {
            let f = (Float(k) + 0.5) / Float(spec.cellSamples) - 0.5
            let c0 = Int(f.rounded(.down))
            let t = f - Float(c0)
            lo.append(c0 + 1)
            hi.append(c0 + 2)
            w.append(t)
        }
        cellLo = lo; cellHi = hi; cellW = w
        samples = [Float](repeating: 0, count: spec.gridSide * spec.gridSide)
        padded = [Float](repeating: 0, count: (spec.cells + 2) * (spec.cells + 2) * spec.bins)
    }

    /// Writes `spec.length` floats to `out`.
    mutating func describe(crop: FaceCrop, at point: SIMD2<Float>, axisX: SIMD2<Float>, into out: UnsafeMutablePointer<Float>) {
        var c = crop.level0Point(point)
        var ax = axisX / Float(crop.factor)
        let useHalf = (ax * ax).sum() > 2.25 && crop.width1 >= 4
        if useHalf { c = (c - 0.5) * 0.5; ax *= 0.5 }
        let ay = SIMD2<Float>(-ax.y, ax.x)
        let m = spec.gridSide
        let half = Float(m - 1) / 2
        let w = useHalf ? crop.width1 : crop.width, h = useHalf ? crop.height1 : crop.height
        let maxX = Float(w - 1) - 0.001, maxY = Float(h - 1) - 0.001
        let pixels = useHalf ? crop.level1 : crop.level0
        pixels.withUnsafeBufferPointer { img in
            samples.withUnsafeMutableBufferPointer { s in
                var idx = 0
                for l in 0..<m {
                    var p = c + ax * (-half) + ay * (Float(l) - half)
                    for _ in 0..<m {
                        let x = min(max(p.x, 0), maxX), y = min(max(p.y, 0), maxY)
                        let xi = Int(x), yi = Int(y)
                        let fx = x - Float(xi), fy = y - Float(yi)
                        let o = yi * w + xi
                        let top = img[o] + fx * (img[o + 1] - img[o])
                        let bottom = img[o + w] + fx * (img[o + w + 1] - img[o + w])
                        s[idx] = top + fy * (bottom - top)
                        idx += 1
                        p += ax
                    }
                }
            }
        }
        let bins = spec.bins, cells = spec.cells, length = spec.length
        let pc = cells + 2
        let binScale = Float(bins) / (2 * Float.pi)
        let g = m - 2
        samples.withUnsafeBufferPointer { s in
            padded.withUnsafeMutableBufferPointer { hist in
                for i in 0..<hist.count { hist[i] = 0 }
                cellLo.withUnsafeBufferPointer { lo in
                    cellHi.withUnsafeBufferPointer { hi in
                        cellW.withUnsafeBufferPointer { cw in
                            for gy in 0..<g {
                                let row = (gy + 1) * m
                                let wyHi = cw[gy], wyLo = 1 - wyHi
                                let rowLo = lo[gy] * pc, rowHi = hi[gy] * pc
                                for gx in 0..<g {
                                    let i = row + gx + 1
                                    let dx = s[i + 1] - s[i - 1]
                                    let dy = s[i + m] - s[i - m]
                                    let mag = (dx * dx + dy * dy).squareRoot()
                                    let t = (fastAtan2(dy, dx) + Float.pi) * binScale
                                    var b0 = Int(t)
                                    let fb = t - Float(b0)
                                    if b0 >= bins { b0 -= bins }
                                    var b1 = b0 + 1
                                    if b1 >= bins { b1 -= bins }
                                    let m1 = mag * fb, m0 = mag - m1
                                    let wxHi = cw[gx], wxLo = 1 - wxHi
                                    let cLo = lo[gx], cHi = hi[gx]
                                    var base = (rowLo + cLo) * bins
                                    var ww = wyLo * wxLo
                                    hist[base + b0] += m0 * ww; hist[base + b1] += m1 * ww
                                    base = (rowLo + cHi) * bins; ww = wyLo * wxHi
                                    hist[base + b0] += m0 * ww; hist[base + b1] += m1 * ww
                                    base = (rowHi + cLo) * bins; ww = wyHi * wxLo
                                    hist[base + b0] += m0 * ww; hist[base + b1] += m1 * ww
                                    base = (rowHi + cHi) * bins; ww = wyHi * wxHi
                                    hist[base + b0] += m0 * ww; hist[base + b1] += m1 * ww
                                }
                            }
                        }
                    }
                }
                for cy in 0..<cells {
                    for cx in 0..<cells {
                        let src = ((cy + 1) * pc + cx + 1) * bins, dst = (cy * cells + cx) * bins
                        for b in 0..<bins { out[dst + b] = hist[src + b] }
                    }
                }
            }
        }
        Self.normalize(out, length)
    }

    /// SIFT normalisation: unit L2, clip at 0.2, unit L2 again (robust to contrast and to a few strong edges).
    static func normalize(_ v: UnsafeMutablePointer<Float>, _ n: Int) {
        var ss: Float = 0
        for i in 0..<n { ss += v[i] * v[i] }
        var inv = 1 / (ss.squareRoot() + 1e-3)
        ss = 0
        for i in 0..<n { let x = min(v[i] * inv, 0.2); v[i] = x; ss += x * x }
        inv = 1 / (ss.squareRoot() + 1e-6)
        for i in 0..<n { v[i] *= inv }
    }
}

/// atan2 to within about 0.005 rad, several times cheaper than libm's (Rajan et al. 2006 polynomial).
@inline(__always)
func fastAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let mx = max(ax, ay), mn = min(ax, ay)
    let z = mx > 0 ? mn / mx : 0
    var r = 0.785_398_16 * z + z * (1 - z) * (0.2447 + 0.0663 * z)
    if ay > ax { r = 1.570_796_3 - r }
    if x < 0 { r = Float.pi - r }
    return y < 0 ? -r : r
}
