/// Computes one landmark's descriptor (see `DescriptorSpec`) from a `FaceCrop`.
///
/// The grid is centred on the landmark and laid along `axisX` (image pixels per grid step along the
/// reference frame's x axis) and its perpendicular, so it follows the face's scale and roll. Gradient
/// magnitudes vote bilinearly into the two nearest orientation bins and the nearest 2x2 cells
/// (SIFT's trilinear interpolation); the result is L2-normalised, clipped at 0.2 and renormalised.
///
/// Two implementations give the same floats to the bit: the 3x3-cell, 8-bin layout of the shipped model
/// takes a fast path (vector gathers, gradients fused with the orientation pass, histograms summed in
/// registers, see `describeFast`); every other layout, and crops too large for the fast path's exact
/// float index arithmetic, the general one. Both add each histogram bin's votes in the same order
/// (sample by sample, row-major), so their sums round alike.
///
/// The constant tables live in a `PatchLayout` built once per model; this value holds only the
/// scratch buffers of one describe call, each its own allocation (so none is copied on first write),
/// reused call after call.
struct PatchDescriptor {
    let layout: PatchLayout
    var spec: DescriptorSpec { layout.spec }
    /// The m x m bilinear samples, row-major, with slack after the last row for whole-vector reads.
    var samples: [Float]
    /// Histograms on a (cells + 2)² grid whose border absorbs votes that fall outside the patch.
    var padded: [Float]
    /// Per gradient sample (row-major over the g x g grid, padded to whole SIMD4 vectors):
    /// x/y differences, then gradient magnitude and continuous orientation-bin position.
    var gradX: [Float], gradY: [Float], lowerVote: [Float], upperVote: [Float]
    /// Fast path: per gradient sample, its 8-bin vote (magnitude split between two adjacent bins),
    /// and its lower bin (`lowerVote` and `upperVote` hold the two shares there).
    var votes: [Float]
    var voteBin: [UInt32]

    init(layout: PatchLayout) {
        self.layout = layout
        let spec = layout.spec
        let m = spec.gridSide
        samples = [Float](repeating: 0, count: (m * m + 3) / 4 * 4 + m + 8)
        padded = [Float](repeating: 0, count: (spec.cells + 2) * (spec.cells + 2) * spec.bins)
        let g = spec.cells * spec.cellSamples
        let n4 = max((g * g + 3) / 4 * 4, g * ((g + 3) / 4 * 4))
        gradX = [Float](repeating: 0, count: n4)
        gradY = [Float](repeating: 0, count: n4)
        lowerVote = [Float](repeating: 0, count: n4)
        upperVote = [Float](repeating: 0, count: n4)
        let fast = layout.fastCells != nil ? g * ((g + 3) / 4 * 4) : 0
        votes = [Float](repeating: 0, count: fast * 8)
        voteBin = [UInt32](repeating: 0, count: fast)
    }

    init(spec: DescriptorSpec) { self.init(layout: PatchLayout(spec: spec)) }

    /// Writes `spec.length` floats to `out`.
    mutating func describe(crop: FaceCrop, at point: SIMD2<Float>, axisX: SIMD2<Float>, into out: UnsafeMutablePointer<Float>) {
        var c = crop.level0Point(point)
        var ax = axisX / Float(crop.factor)
        let useHalf = (ax * ax).sum() > 2.25 && crop.width1 >= 4
        if useHalf { c = (c - 0.5) * 0.5; ax *= 0.5 }
        let w = useHalf ? crop.width1 : crop.width, h = useHalf ? crop.height1 : crop.height
        let pixels = useHalf ? crop.level1 : crop.level0
        // The vector gather computes pixel indices as float integers: exact below 2^24 pixels.
        if w * h <= 1 << 24 {
            sampleVector(pixels, width: w, height: h, centre: c, axis: ax)
        } else {
            sampleScalar(pixels, width: w, height: h, centre: c, axis: ax)
        }
        if let cells = layout.fastCells {
            histogramsFast(cells, into: out)
        } else {
            histogramsGeneral(into: out)
        }
        Self.normalize(out, spec.length)
    }

    /// Bilinear samples of the m x m grid into `samples`, four at a time, with vector coordinates,
    /// weights and indices and two-pixel loads (each sample's top and bottom pixel pairs are adjacent).
    private mutating func sampleVector(_ pixels: [Float], width w: Int, height h: Int, centre c: SIMD2<Float>, axis ax: SIMD2<Float>) {
        let wf = SIMD4<Float>(repeating: Float(w))
        let rowBytes = 4 * w
        forEachGridQuad(pixels, width: w, height: h, centre: c, axis: ax) { base, x, y in
            let xi = float(truncated(x)), yi = float(truncated(y))
            // Exact: every index is an integer below 2^24.
            let index = truncated(yi * wf + xi)
            // (p00, p01) of samples 0 and 1, then 2 and 3; the row below likewise.
            // Unsigned, so widening is free.
            let r0 = UnsafeRawPointer(base + Int(UInt32(bitPattern: index[0])))
            let r1 = UnsafeRawPointer(base + Int(UInt32(bitPattern: index[1])))
            let r2 = UnsafeRawPointer(base + Int(UInt32(bitPattern: index[2])))
            let r3 = UnsafeRawPointer(base + Int(UInt32(bitPattern: index[3])))
            let a = SIMD4<Float>(lowHalf: r0.loadUnaligned(as: SIMD2<Float>.self), highHalf: r1.loadUnaligned(as: SIMD2<Float>.self))
            let b = SIMD4<Float>(lowHalf: r2.loadUnaligned(as: SIMD2<Float>.self), highHalf: r3.loadUnaligned(as: SIMD2<Float>.self))
            let d = SIMD4<Float>(lowHalf: r0.loadUnaligned(fromByteOffset: rowBytes, as: SIMD2<Float>.self),
                                 highHalf: r1.loadUnaligned(fromByteOffset: rowBytes, as: SIMD2<Float>.self))
            let e = SIMD4<Float>(lowHalf: r2.loadUnaligned(fromByteOffset: rowBytes, as: SIMD2<Float>.self),
                                 highHalf: r3.loadUnaligned(fromByteOffset: rowBytes, as: SIMD2<Float>.self))
            return Self.bilinear(p00: SIMD4<Float>(lowHalf: a.evenHalf, highHalf: b.evenHalf),
                                 p01: SIMD4<Float>(lowHalf: a.oddHalf, highHalf: b.oddHalf),
                                 p10: SIMD4<Float>(lowHalf: d.evenHalf, highHalf: e.evenHalf),
                                 p11: SIMD4<Float>(lowHalf: d.oddHalf, highHalf: e.oddHalf), fx: x - xi, fy: y - yi)
        }
    }

    /// `sampleVector` with integer indices and scalar pixel reads: for crops of more than 2^24 pixels.
    private mutating func sampleScalar(_ pixels: [Float], width w: Int, height h: Int, centre c: SIMD2<Float>, axis ax: SIMD2<Float>) {
        forEachGridQuad(pixels, width: w, height: h, centre: c, axis: ax) { img, x, y in
            let zero = SIMD4<Float>(repeating: 0)
            var p00 = zero, p01 = zero, p10 = zero, p11 = zero, fx = zero, fy = zero
            for lane in 0..<4 {
                let xl = x[lane], yl = y[lane]
                let xi = Int(xl), yi = Int(yl)
                fx[lane] = xl - Float(xi); fy[lane] = yl - Float(yi)
                let i = yi * w + xi
                p00[lane] = img[i]; p01[lane] = img[i + 1]
                p10[lane] = img[i + w]; p11[lane] = img[i + w + 1]
            }
            return Self.bilinear(p00: p00, p01: p01, p10: p10, p11: p11, fx: fx, fy: fy)
        }
    }

    /// The grid of the m x m samples laid along `axis` around `centre`, four points at a time, clamped
    /// into the `w` x `h` pixels so that every sample's 2x2 neighbourhood is inside; `body` returns the
    /// four samples at those points (given the pixels' base address), stored in `samples` in grid order.
    @inline(__always)
    private mutating func forEachGridQuad(_ pixels: [Float], width w: Int, height h: Int, centre c: SIMD2<Float>, axis ax: SIMD2<Float>,
                                          _ body: (UnsafePointer<Float>, SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) {
        let ay = SIMD2<Float>(-ax.y, ax.x)
        let m = spec.gridSide
        let maxX = Float(w - 1) - 0.001, maxY = Float(h - 1) - 0.001
        let total = m * m
        pixels.withUnsafeBufferPointer { img in
            layout.offsetX.withUnsafeBufferPointer { ox in
            layout.offsetY.withUnsafeBufferPointer { oy in
            samples.withUnsafeMutableBufferPointer { s in
                let base = img.baseAddress!
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
                    // Clamped as maxps/minps: `.!(x .> 0)` also catches NaN (a degenerate shape), which must
                    // not become an index. (−0 becomes +0 here, which no later sum can tell apart.)
                    x = x.replacing(with: zero, where: .!(x .> zero)); x = x.replacing(with: hiX, where: hiX .< x)
                    y = y.replacing(with: zero, where: .!(y .> zero)); y = y.replacing(with: hiY, where: hiY .< y)
                    rs.storeBytes(of: body(base, x, y), toByteOffset: off, as: SIMD4<Float>.self)
                    q += 4
                }
            }
            }
            }
        }
    }

    /// Bilinear interpolation of the four neighbours by the fractions `fx` (across) and `fy` (down).
    @inline(__always)
    private static func bilinear(p00: SIMD4<Float>, p01: SIMD4<Float>, p10: SIMD4<Float>, p11: SIMD4<Float>,
                                 fx: SIMD4<Float>, fy: SIMD4<Float>) -> SIMD4<Float> {
        let top = p00 + fx * (p01 - p00), bottom = p10 + fx * (p11 - p10)
        return top + fy * (bottom - top)
    }

    /// The 3x3-cell, 8-bin histograms from `samples`, straight into `out`.
    ///
    /// Pass 1, per gradient row and four samples at a time: central differences, magnitude, orientation
    /// bin, and each sample's vote as an 8-lane vector (the magnitude split between bins b and b + 1,
    /// zero elsewhere). Pass 2, per cell row: the three cells' histograms are `SIMD8` accumulators in
    /// registers, each sample adding its vote times its spatial weight to the one or two cells it
    /// reaches. Adding v·w on all eight lanes adds exactly +0 to the six bins the sample does not vote
    /// for, so every bin sums the same products in the same order as the general path; votes that
    /// would land in the border cells are never computed.
    private mutating func histogramsFast(_ cells: PatchLayout.FastCells, into out: UnsafeMutablePointer<Float>) {
        let m = spec.gridSide, g = m - 2, g4 = (g + 3) / 4 * 4
        // Pass 1a, vectors only (the per-lane pass 1b would otherwise pull the vector arithmetic
        // apart lane by lane): lower-bin share, upper-bin share and lower bin of every sample.
        samples.withUnsafeBufferPointer { sp in
            lowerVote.withUnsafeMutableBufferPointer { lp in
            upperVote.withUnsafeMutableBufferPointer { up in
            voteBin.withUnsafeMutableBufferPointer { bp in
                let rs = UnsafeRawPointer(sp.baseAddress!)
                let rl = UnsafeMutableRawPointer(lp.baseAddress!), ru = UnsafeMutableRawPointer(up.baseAddress!)
                let rb = UnsafeMutableRawPointer(bp.baseAddress!)
                for gy in 0..<g {
                    var gx = 0
                    while gx < g {
                        let (m0, m1, bin) = orientationVotes(rs, at: ((gy + 1) * m + 1 + gx) * 4, rowBytes: 4 * m)
                        let o = (gy * g4 + gx) * 4
                        rl.storeBytes(of: m0, toByteOffset: o, as: SIMD4<Float>.self)
                        ru.storeBytes(of: m1, toByteOffset: o, as: SIMD4<Float>.self)
                        rb.storeBytes(of: bin, toByteOffset: o, as: SIMD4<UInt32>.self)
                        gx += 4
                    }
                }
            }
            }
            }
        }
        // Pass 1b: each sample's vote as a vector (rows of g4, the padding included).
        lowerVote.withUnsafeBufferPointer { lp in
        upperVote.withUnsafeBufferPointer { up in
        voteBin.withUnsafeBufferPointer { bp in
        votes.withUnsafeMutableBufferPointer { vp in
            let v = vp.baseAddress!, rv = UnsafeMutableRawPointer(v)
            for q in 0..<(g * g4) {
                rv.storeBytes(of: SIMD8<Float>(), toByteOffset: q * 32, as: SIMD8<Float>.self)
                let b0 = Int(bp[q] & 7)
                v[q * 8 + b0] = lp[q]
                v[q * 8 + ((b0 + 1) & 7)] = up[q]
            }
        }
        }
        }
        }
        // Pass 2. The weights come pre-multiplied (row weight times column weight, as the general path
        // forms them) and pre-broadcast, in the order this loop takes them.
        let ro = UnsafeMutableRawPointer(out)
        votes.withUnsafeBufferPointer { vp in
            cells.products.withUnsafeBufferPointer { wp in
                let rv = UnsafeRawPointer(vp.baseAddress!)
                var w = wp.baseAddress!
                let s1 = cells.start1, e0 = cells.end0, s2 = cells.start2, e1 = cells.end1
                for cy in 0..<3 {
                    var a0l = SIMD4<Float>(), a0h = SIMD4<Float>(), a1l = SIMD4<Float>(), a1h = SIMD4<Float>()
                    var a2l = SIMD4<Float>(), a2h = SIMD4<Float>()
                    for gy in cells.start[cy]..<cells.end[cy] {
                        let rowVotes = rv + gy * g4 * 32
                        @inline(__always) func low(_ k: Int) -> SIMD4<Float> {
                            rowVotes.loadUnaligned(fromByteOffset: k * 32, as: SIMD4<Float>.self)
                        }
                        @inline(__always) func high(_ k: Int) -> SIMD4<Float> {
                            rowVotes.loadUnaligned(fromByteOffset: k * 32 + 16, as: SIMD4<Float>.self)
                        }
                        for k in cells.start0..<s1 {
                            a0l += low(k) * w[0]; a0h += high(k) * w[0]; w += 1
                        }
                        for k in s1..<e0 {
                            let l = low(k), h = high(k)
                            a0l += l * w[0]; a0h += h * w[0]; a1l += l * w[1]; a1h += h * w[1]; w += 2
                        }
                        for k in e0..<s2 {
                            a1l += low(k) * w[0]; a1h += high(k) * w[0]; w += 1
                        }
                        for k in s2..<e1 {
                            let l = low(k), h = high(k)
                            a1l += l * w[0]; a1h += h * w[0]; a2l += l * w[1]; a2h += h * w[1]; w += 2
                        }
                        for k in e1..<cells.end2 {
                            a2l += low(k) * w[0]; a2h += high(k) * w[0]; w += 1
                        }
                    }
                    ro.storeBytes(of: a0l, toByteOffset: cy * 96, as: SIMD4<Float>.self)
                    ro.storeBytes(of: a0h, toByteOffset: cy * 96 + 16, as: SIMD4<Float>.self)
                    ro.storeBytes(of: a1l, toByteOffset: cy * 96 + 32, as: SIMD4<Float>.self)
                    ro.storeBytes(of: a1h, toByteOffset: cy * 96 + 48, as: SIMD4<Float>.self)
                    ro.storeBytes(of: a2l, toByteOffset: cy * 96 + 64, as: SIMD4<Float>.self)
                    ro.storeBytes(of: a2h, toByteOffset: cy * 96 + 80, as: SIMD4<Float>.self)
                }
            }
        }
    }

    /// The histograms for any layout, from `samples`, into `out` (padded histograms, scalar votes).
    private mutating func histogramsGeneral(into out: UnsafeMutablePointer<Float>) {
        let m = spec.gridSide
        let bins = spec.bins, cells = spec.cells
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
    /// The fast path's tables (3x3 cells, 8 bins; nil for other layouts).
    let fastCells: FastCells?

    /// Which gradient samples reach each of the three cells along one axis, and with what weight: cell
    /// c takes samples `start[c]..<end[c]` (contiguous; cells 0 and 2 never share one) with weight
    /// `weights[c * g + k]` (1 − t for its lower cell, t for its upper one, as in `cellW`).
    struct FastCells: Sendable {
        let start: [Int], end: [Int]
        let weights: [Float]
        /// Pass 2's spatial weights (row weight times column weight), broadcast, in its order.
        let products: [SIMD4<Float>]
        var start0: Int { start[0] }
        var start1: Int { start[1] }
        var start2: Int { start[2] }
        var end0: Int { end[0] }
        var end1: Int { end[1] }
        var end2: Int { end[2] }

        /// Nil unless the windows overlap only neighbour with neighbour, in order (always so for
        /// `cellLo`/`cellHi` tables, which step by one cell).
        init?(g: Int, lo: [Int], hi: [Int], w: [Float]) {
            var start = [Int](repeating: g, count: 3), end = [Int](repeating: 0, count: 3)
            var weights = [Float](repeating: 0, count: 3 * g)
            for k in 0..<g {
                for c in 0..<3 {
                    // Padded index c + 1 is real cell c.
                    if lo[k] == c + 1 { weights[c * g + k] = 1 - w[k] } else if hi[k] == c + 1 { weights[c * g + k] = w[k] } else { continue }
                    start[c] = min(start[c], k); end[c] = max(end[c], k + 1)
                }
            }
            for c in 0..<3 {
                guard start[c] < end[c] else { return nil }
                for k in start[c]..<end[c] where lo[k] != c + 1 && hi[k] != c + 1 { return nil }
            }
            guard start[0] <= start[1], start[1] <= end[0], end[0] <= start[2], start[2] <= end[1], end[1] <= end[2] else { return nil }
            self.start = start; self.end = end; self.weights = weights
            // Pass 2's weights in its order: per cell row and gradient row, the five column segments
            // (cell 0; cells 0 and 1; cell 1; cells 1 and 2; cell 2), each sample's cells in order.
            var products: [SIMD4<Float>] = []
            for cy in 0..<3 {
                for gy in start[cy]..<end[cy] {
                    let ry = weights[cy * g + gy]
                    func add(_ k: Int, _ cells: Int...) { for c in cells { products.append(SIMD4(repeating: ry * weights[c * g + k])) } }
                    for k in start[0]..<start[1] { add(k, 0) }
                    for k in start[1]..<end[0] { add(k, 0, 1) }
                    for k in end[0]..<start[2] { add(k, 1) }
                    for k in start[2]..<end[1] { add(k, 1, 2) }
                    for k in end[1]..<end[2] { add(k, 2) }
                }
            }
            self.products = products
        }
    }

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
        fastCells = spec.cells == 3 && spec.bins == 8 ? FastCells(g: g, lo: lo, hi: hi, w: w) : nil
    }
}

/// Four gradient samples of an 8-bin histogram from the bilinear samples at `raw + offset` and their
/// neighbours: the lower bin's share of the magnitude, the upper bin's share, and the lower bin
/// (0 ... 8; 8 is bin 0). The same arithmetic as the general path, lane for lane.
@inline(__always)
private func orientationVotes(_ raw: UnsafeRawPointer, at offset: Int, rowBytes: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<UInt32>) {
    let x = raw.loadUnaligned(fromByteOffset: offset + 4, as: SIMD4<Float>.self)
        - raw.loadUnaligned(fromByteOffset: offset - 4, as: SIMD4<Float>.self)
    let y = raw.loadUnaligned(fromByteOffset: offset + rowBytes, as: SIMD4<Float>.self)
        - raw.loadUnaligned(fromByteOffset: offset - rowBytes, as: SIMD4<Float>.self)
    let mag = (x * x + y * y).squareRoot()
    let t = (fastAtan2(y, x) + SIMD4<Float>(repeating: Float.pi)) * SIMD4<Float>(repeating: 8 / (2 * Float.pi))
    // t is in [0, 8]: floor(t) (= the general path's Float(Int(t))) by rounding through 2^23 and
    // stepping down where that rounded up; the bits of floor(t) + 2^23 give the integer.
    let magic = SIMD4<Float>(repeating: 8_388_608)
    var bt = (t + magic) - magic
    bt.replace(with: bt - 1, where: bt .> t)
    let m1 = mag * (t - bt), m0 = mag - m1
    return (m0, m1, unsafeBitCast(bt + magic, to: SIMD4<UInt32>.self) &- 0x4B00_0000)
}

/// Lane by lane, so that it compiles to one vector conversion (cvttps2dq; the generic SIMD
/// conversion initialisers call into the runtime per lane).
@inline(__always)
private func truncated(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    SIMD4(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]))
}

/// Lane by lane, so that it compiles to one vector conversion (cvtdq2ps).
@inline(__always)
private func float(_ v: SIMD4<Int32>) -> SIMD4<Float> {
    SIMD4(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
}

/// atan2 to within about 0.005 rad, several times cheaper than libm's (Rajan et al. 2006 polynomial),
/// four at a time; lane for lane the same arithmetic as the scalar version.
@inline(__always)
func fastAtan2(_ y: SIMD4<Float>, _ x: SIMD4<Float>) -> SIMD4<Float> {
    let zero = SIMD4<Float>(repeating: 0)
    // |x| by clearing the sign bit (one andps): it maps −0 to +0, which changes no result below.
    let noSign = SIMD4<UInt32>(repeating: 0x7FFF_FFFF)
    let ax = unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & noSign, to: SIMD4<Float>.self)
    let ay = unsafeBitCast(unsafeBitCast(y, to: SIMD4<UInt32>.self) & noSign, to: SIMD4<Float>.self)
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
