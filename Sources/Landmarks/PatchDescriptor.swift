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
    /// Per gradient sample (row-major over the g x g grid, padded to whole SIMD4 vectors):
    /// x/y differences, then gradient magnitude and continuous orientation-bin position.
    var gradX: [Float], gradY: [Float], lowerVote: [Float], upperVote: [Float]

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
        let n4 = (g * g + 3) / 4 * 4
        gradX = [Float](repeating: 0, count: n4); gradY = gradX
        lowerVote = gradX; upperVote = gradX
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
        let g = m - 2
        let count = g * g
        // 1. Central differences, flattened.
        samples.withUnsafeBufferPointer { s in
            gradX.withUnsafeMutableBufferPointer { gxp in
                gradY.withUnsafeMutableBufferPointer { gyp in
                    var q = 0
                    for gy in 0..<g {
                        let row = (gy + 1) * m + 1
                        for gx in 0..<g {
                            let i = row + gx
                            gxp[q] = s[i + 1] - s[i - 1]
                            gyp[q] = s[i + m] - s[i - m]
                            q += 1
                        }
                    }
                }
            }
        }
        // 2. Magnitude and orientation bin, four samples at a time (same arithmetic as `fastAtan2`).
        let binScale = SIMD4<Float>(repeating: Float(bins) / (2 * Float.pi))
        let pi4 = SIMD4<Float>(repeating: Float.pi)
        gradX.withUnsafeBufferPointer { gxp in
            gradY.withUnsafeBufferPointer { gyp in
                do {
                    lowerVote.withUnsafeMutableBufferPointer { lv in
                        upperVote.withUnsafeMutableBufferPointer { uv in
                            let rx = UnsafeRawPointer(gxp.baseAddress!), ry = UnsafeRawPointer(gyp.baseAddress!)
                            let rlv = UnsafeMutableRawPointer(lv.baseAddress!), ruv = UnsafeMutableRawPointer(uv.baseAddress!)
                            var q = 0
                            while q < count {
                                let off = q * 4
                                let x = rx.loadUnaligned(fromByteOffset: off, as: SIMD4<Float>.self)
                                let y = ry.loadUnaligned(fromByteOffset: off, as: SIMD4<Float>.self)
                                let mag = (x * x + y * y).squareRoot()
                                let t = (fastAtan2(y, x) + pi4) * binScale
                                rlv.storeBytes(of: mag, toByteOffset: off, as: SIMD4<Float>.self)
                                ruv.storeBytes(of: t, toByteOffset: off, as: SIMD4<Float>.self)
                                q += 4
                            }
                        }
                    }
                }
            }
        }
        // 3. Votes into the two nearest orientation bins of the four nearest cells.
        padded.withUnsafeMutableBufferPointer { hist in
            for i in 0..<hist.count { hist[i] = 0 }
            do {
            lowerVote.withUnsafeBufferPointer { lv in
            upperVote.withUnsafeBufferPointer { uv in
            cellLo.withUnsafeBufferPointer { lo in
            cellHi.withUnsafeBufferPointer { hi in
            cellW.withUnsafeBufferPointer { cw in
                var q = 0
                for gy in 0..<g {
                    let wyHi = cw[gy], wyLo = 1 - wyHi
                    let rowLo = lo[gy] * pc, rowHi = hi[gy] * pc
                    for gx in 0..<g {
                        // lv holds the magnitude and uv the continuous bin position of sample q.
                        let t = uv[q], mag = lv[q]
                        var b0 = Int(t)
                        let m1 = mag * (t - Float(b0)), m0 = mag - m1
                        if b0 >= bins { b0 -= bins }
                        var b1 = b0 + 1
                        if b1 >= bins { b1 -= bins }
                        q += 1
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

/// atan2 to within about 0.005 rad, several times cheaper than libm's (Rajan et al. 2006 polynomial),
/// four at a time; lane for lane the same arithmetic as the scalar version.
@inline(__always)
func fastAtan2(_ y: SIMD4<Float>, _ x: SIMD4<Float>) -> SIMD4<Float> {
    let zero = SIMD4<Float>(repeating: 0)
    let ax = x.replacing(with: -x, where: x .< zero), ay = y.replacing(with: -y, where: y .< zero)
    let steep = ay .> ax
    let mx = ax.replacing(with: ay, where: steep), mn = ay.replacing(with: ax, where: steep)
    let ratio: SIMD4<Float> = mn / mx
    let z = ratio.replacing(with: zero, where: mx .<= zero)
    var r = 0.785_398_16 * z + z * (1 - z) * (0.2447 + 0.0663 * z)
    r.replace(with: 1.570_796_3 - r, where: steep)
    r.replace(with: Float.pi - r, where: x .< zero)
    r.replace(with: -r, where: y .< zero)
    return r
}
