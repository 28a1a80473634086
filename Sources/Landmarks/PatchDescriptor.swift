/// Computes one landmark's descriptor (see `DescriptorSpec`) from a `FaceCrop`.
///
/// The grid is centred on the landmark and laid along `axisX` (image pixels per grid step along the
/// reference frame's x axis) and its perpendicular, so it follows the face's scale and roll. Gradient
/// magnitudes vote bilinearly into the two nearest orientation bins and the nearest 2x2 cells
/// (SIFT's trilinear interpolation); the result is L2-normalised, clipped at 0.2 and renormalised.
///
/// The constant tables live in a `PatchLayout` built once per model; this value holds only the
/// scratch buffers of one describe call, each its own allocation (so none is copied on first write),
/// reused call after call.
struct PatchDescriptor {
    let layout: PatchLayout
    var spec: DescriptorSpec { layout.spec }
    var samples: [Float]
    /// Histograms on a (cells + 2)² grid whose border absorbs votes that fall outside the patch.
    var padded: [Float]
    /// Per gradient sample (row-major over the g x g grid, padded to whole SIMD4 vectors):
    /// x/y differences, then gradient magnitude and continuous orientation-bin position.
    var gradX: [Float], gradY: [Float], lowerVote: [Float], upperVote: [Float]

    init(layout: PatchLayout) {
        self.layout = layout
        let spec = layout.spec
        samples = [Float](repeating: 0, count: (spec.gridSide * spec.gridSide + 3) / 4 * 4)
        padded = [Float](repeating: 0, count: (spec.cells + 2) * (spec.cells + 2) * spec.bins)
        let g = spec.cells * spec.cellSamples
        let n4 = (g * g + 3) / 4 * 4
        gradX = [Float](repeating: 0, count: n4)
        gradY = [Float](repeating: 0, count: n4)
        lowerVote = [Float](repeating: 0, count: n4)
        upperVote = [Float](repeating: 0, count: n4)
    }

    init(spec: DescriptorSpec) { self.init(layout: PatchLayout(spec: spec)) }

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
        // Bilinear samples four at a time: coordinates and weights in SIMD, the 16 pixel reads scalar.
        let total = m * m
        pixels.withUnsafeBufferPointer { img in
            layout.offsetX.withUnsafeBufferPointer { ox in
            layout.offsetY.withUnsafeBufferPointer { oy in
            samples.withUnsafeMutableBufferPointer { s in
                let rox = UnsafeRawPointer(ox.baseAddress!), roy = UnsafeRawPointer(oy.baseAddress!)
                let rs = UnsafeMutableRawPointer(s.baseAddress!)
                let cx = SIMD4<Float>(repeating: c.x), cy = SIMD4<Float>(repeating: c.y)
                let axx = SIMD4<Float>(repeating: ax.x), axy = SIMD4<Float>(repeating: ax.y)
                let ayx = SIMD4<Float>(repeating: ay.x), ayy = SIMD4<Float>(repeating: ay.y)
                let zero = SIMD4<Float>(repeating: 0)
                let hiX = SIMD4<Float>(repeating: maxX), hiY = SIMD4<Float>(repeating: maxY)
                var q = 0
                while q < total {
                    let off = q * 4
                    let u = rox.loadUnaligned(fromByteOffset: off, as: SIMD4<Float>.self)
                    let v = roy.loadUnaligned(fromByteOffset: off, as: SIMD4<Float>.self)
                    var x = cx + axx * u + ayx * v, y = cy + axy * u + ayy * v
                    // `.!(x .>= 0)` also catches NaN (a degenerate shape), which must not become an index.
                    x.replace(with: zero, where: .!(x .>= zero)); x.replace(with: hiX, where: x .> hiX)
                    y.replace(with: zero, where: .!(y .>= zero)); y.replace(with: hiY, where: y .> hiY)
                    var p00 = zero, p01 = zero, p10 = zero, p11 = zero, fx = zero, fy = zero
                    for lane in 0..<4 {
                        let xl = x[lane], yl = y[lane]
                        let xi = Int(xl), yi = Int(yl)
                        fx[lane] = xl - Float(xi); fy[lane] = yl - Float(yi)
                        let i = yi * w + xi
                        p00[lane] = img[i]; p01[lane] = img[i + 1]
                        p10[lane] = img[i + w]; p11[lane] = img[i + w + 1]
                    }
                    let top = p00 + fx * (p01 - p00), bottom = p10 + fx * (p11 - p10)
                    rs.storeBytes(of: top + fy * (bottom - top), toByteOffset: off, as: SIMD4<Float>.self)
                    q += 4
                }
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
            if bins == 8 {
                // Cell offsets and spatial weights come from tables built once per layout.
                lowerVote.withUnsafeBufferPointer { lv in
                upperVote.withUnsafeBufferPointer { uv in
                layout.voteCell.withUnsafeBufferPointer { vc in
                layout.voteWeight.withUnsafeBufferPointer { vw in
                    let h = hist.baseAddress!
                    for q in 0..<count {
                        let t = uv[q], mag = lv[q]
                        var b0 = Int(t)
                        let m1 = mag * (t - Float(b0)), m0 = mag - m1
                        b0 &= 7
                        let b1 = (b0 + 1) & 7
                        let k = 4 * q
                        for j in 0..<4 {
                            let base = h + Int(vc[k + j]), ww = vw[k + j]
                            base[b0] += m0 * ww; base[b1] += m1 * ww
                        }
                    }
                }
                }
                }
                }
            } else {
            lowerVote.withUnsafeBufferPointer { lv in
            upperVote.withUnsafeBufferPointer { uv in
            layout.cellLo.withUnsafeBufferPointer { lo in
            layout.cellHi.withUnsafeBufferPointer { hi in
            layout.cellW.withUnsafeBufferPointer { cw in
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
        let raw = UnsafeMutableRawPointer(v)
        let whole = n / 8 * 8
        var acc = SIMD8<Float>()
        for i in stride(from: 0, to: whole, by: 8) {
            let x = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self); acc += x * x
        }
        var ss = acc.sum()
        for i in whole..<n { ss += v[i] * v[i] }
        var inv = 1 / (ss.squareRoot() + 1e-3)
        let clip = SIMD8<Float>(repeating: 0.2)
        acc = SIMD8<Float>()
        for i in stride(from: 0, to: whole, by: 8) {
            var x = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) * inv
            x.replace(with: clip, where: x .> clip)
            raw.storeBytes(of: x, toByteOffset: i * 4, as: SIMD8<Float>.self)
            acc += x * x
        }
        ss = acc.sum()
        for i in whole..<n { let x = min(v[i] * inv, 0.2); v[i] = x; ss += x * x }
        inv = 1 / (ss.squareRoot() + 1e-6)
        for i in stride(from: 0, to: whole, by: 8) {
            raw.storeBytes(of: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) * inv, toByteOffset: i * 4, as: SIMD8<Float>.self)
        }
        for i in whole..<n { v[i] *= inv }
    }
}

/// The constant tables of a `DescriptorSpec` (cell lookup, grid offsets, vote cells and weights):
/// built once with the model, shared read-only by every `PatchDescriptor` of it.
struct PatchLayout: Sendable {
    let spec: DescriptorSpec
    /// Per gradient column/row: lower cell index, upper cell index (−1 when outside) and upper weight.
    let cellLo: [Int]
    let cellHi: [Int]
    let cellW: [Float]
    /// Grid offsets (in grid steps from the patch centre) of the m x m samples, padded to whole SIMD4 groups.
    let offsetX: [Float], offsetY: [Float]
    /// Per gradient sample: the padded-histogram offsets of its four cells (lo/lo, lo/hi, hi/lo, hi/hi as
    /// y/x) and their spatial weights, so the 8-bin fast path does no index arithmetic per vote.
    let voteCell: [Int32], voteWeight: [Float]

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
        let m = spec.gridSide, half = Float(m - 1) / 2
        let nm4 = (m * m + 3) / 4 * 4
        var ox = [Float](repeating: 0, count: nm4), oy = ox
        for l in 0..<m { for k in 0..<m { ox[l * m + k] = Float(k) - half; oy[l * m + k] = Float(l) - half } }
        offsetX = ox; offsetY = oy
        let pc = spec.cells + 2
        var vc: [Int32] = [], vw: [Float] = []
        vc.reserveCapacity(4 * g * g); vw.reserveCapacity(4 * g * g)
        for gy in 0..<g {
            for gx in 0..<g {
                let wyHi = w[gy], wyLo = 1 - wyHi, wxHi = w[gx], wxLo = 1 - wxHi
                for cell in [lo[gy] * pc + lo[gx], lo[gy] * pc + hi[gx], hi[gy] * pc + lo[gx], hi[gy] * pc + hi[gx]] {
                    vc.append(Int32(cell) * Int32(spec.bins))
                }
                vw += [wyLo * wxLo, wyLo * wxHi, wyHi * wxLo, wyHi * wxHi]
            }
        }
        voteCell = vc; voteWeight = vw
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
