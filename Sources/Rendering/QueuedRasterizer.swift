import Imaging

extension Rasterizer {
    /// `rasterize` for the material shaders, with the same coverage, depth test, anti-aliasing and
    /// blending, but fragments that pass the depth test are queued (`FragmentQueue`) and shaded eight
    /// at a time (`BatchShader.shade`), then blended into the image in the order they were queued
    /// (so fragments of later triangles over the same pixel still land on top). The perspective
    /// division happens in the batch, one vector reciprocal per eight fragments. Wide triangles
    /// without anti-aliased edges skip the queue and are drawn eight neighbouring pixels at a time
    /// (`drawSpans`), after the queue is flushed so that earlier fragments land first.
    ///
    /// Depth: shaders that never discard write depth as soon as a pixel passes the test (as
    /// `rasterize`, which writes it when the pixel is shaded, before the next triangle); shaders
    /// that may discard write it when shaded, and the queue is shaded at the end of every triangle.
    static func rasterizeQueued<S: BatchShader>(_ triangles: [ScreenTriangle], shader: S,
                                                color: inout RGBImage, depth: inout DepthBuffer,
                                                scissor: PixelRect?, queue: inout FragmentQueue) {
        precondition(color.width == depth.width && color.height == depth.height, "colour and depth sizes differ")
        guard color.width > 0 && color.height > 0 else { return }
        let width = color.width, height = color.height
        let clip = (scissor ?? PixelRect(x: 0, y: 0, width: width, height: height))
            .overlap(PixelRect(x: 0, y: 0, width: width, height: height))
        guard let clip else { return }
        // Pixel indices are queued as floats (exact below 2^24; integer vector compares compiled badly).
        guard width * height < 1 << 24 else {
            rasterize(triangles, shader: shader, color: &color, depth: &depth, scissor: scissor)
            return
        }
        var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
        ColorTables.toLinear.withUnsafeBufferPointer { toLinear in
            ColorTables.toSRGB.withUnsafeBufferPointer { toSRGB in
                color.pixels.withUnsafeMutableBufferPointer { rgb in
                    depth.values.withUnsafeMutableBufferPointer { z in
                        queue.first.withUnsafeMutableBufferPointer { first in
                        queue.second.withUnsafeMutableBufferPointer { second in
                        queue.weights.withUnsafeMutableBufferPointer { weights in
                        queue.coverages.withUnsafeMutableBufferPointer { coverages in
                        queue.pixels.withUnsafeMutableBufferPointer { pixels in
                        queue.slots.withUnsafeMutableBufferPointer { slots in
                        queue.writesDepth.withUnsafeMutableBufferPointer { writes in
                        queue.corners.withUnsafeMutableBufferPointer { corners in
                        queue.mixed.withUnsafeMutableBufferPointer { mixed in
                        queue.encoded.withUnsafeMutableBufferPointer { encoded in
                            triangles.withUnsafeBufferPointer { tris in
                                var q = QueueWriter(first: first.baseAddress!, second: second.baseAddress!, weights: weights.baseAddress!,
                                                    coverages: coverages.baseAddress!, pixels: pixels.baseAddress!,
                                                    slots: slots.baseAddress!, writesDepth: writes.baseAddress!,
                                                    corners: corners.baseAddress!, mixed: mixed.baseAddress!, rgb: rgb.baseAddress!,
                                                    z: z.baseAddress!, toLinear: toLinear.baseAddress!, toSRGB: toSRGB.baseAddress!,
                                                    encoded: encoded.baseAddress!)
                                for t in tris {
                                    let drawn: PixelRect?
                                    if drawsAsSpans(t, mayDiscard: shader.mayDiscard) {
                                        q.flush(shader)
                                        drawn = drawSpans(t, shader: shader, width: width, pixelCount: width * height, clip: clip, queue: &q)
                                    } else {
                                        drawn = queueTriangle(t, shader: shader, width: width, clip: clip, z: z, queue: &q)
                                    }
                                    if let r = drawn {
                                        box.minX = min(box.minX, r.x); box.minY = min(box.minY, r.y)
                                        box.maxX = max(box.maxX, r.lastX); box.maxY = max(box.maxY, r.lastY)
                                    }
                                    if shader.mayDiscard { q.flush(shader) }
                                }
                                q.flush(shader)
                            }
                        }
                        }
                        }
                        }
                        }
                        }
                        }
                        }
                        }
                        }
                    }
                }
            }
        }
        if box.maxX >= 0 && shader.writesDepth { depth.markDirty(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) }
    }

    /// Covers one triangle, queueing the fragments that pass the depth test; its pixel box when any did.
    @inline(__always)
    static func queueTriangle<S: BatchShader>(_ t: ScreenTriangle, shader: S, width: Int, clip: PixelRect,
                                              z: UnsafeMutableBufferPointer<Float>, queue q: inout QueueWriter) -> PixelRect? {
        guard let e = TriangleEdges(t, clip: clip, smoothEdges: t.smoothEdges) else { return nil }
        let writesDepth = shader.writesDepth, deferDepth = shader.mayDiscard
        let m = t.smoothEdges
        let a0 = e.a0, a1 = e.a1, a2 = e.a2, b0 = e.b0, b1 = e.b1, b2 = e.b2, c0 = e.c0, c1 = e.c1, c2 = e.c2
        let t0 = e.t0, t1 = e.t1, t2 = e.t2
        let s0 = t0 != 0, s1 = t1 != 0, s2 = t2 != 0
        let k0 = e.k0, k1 = e.k1, k2 = e.k2
        let (v0, v1, v2) = Rasterizer.corners(of: t, shader: shader)
        q.begin(v0, v1, v2)
        let plane = InverseDepthPlane(e, t)
        let g0 = plane.g0, g1 = plane.g1, g2 = plane.g2
        let ox = plane.ox, oy = plane.oy, wA = plane.wA, wB = plane.wB, wO = plane.wO
        var touched = false
        /// The rows; `smooth` is constant in each of the two inlined copies, so a triangle without
        /// silhouette edges (most) runs a loop with no fringe code.
        @inline(__always) func rows(smooth: Bool) {
            for py in e.minY...e.maxY {
                let fy = Float(py)
                guard let (xStart, xEnd) = e.span(y: fy) else { continue }
                let fx = Float(xStart)
                let r0 = b0 * fy + c0, r1 = b1 * fy + c1, r2 = b2 * fy + c2
                var e0 = a0 * fx + r0, e1 = a1 * fx + r1, e2 = a2 * fx + r2
                var w = wO + wA * (fx - ox) + wB * (fy - oy)
                let row = py * width
                for px in xStart...xEnd {
                    var d0 = e0, d1 = e1, d2 = e2
                    let wHere = w
                    e0 += a0; e1 += a1; e2 += a2; w += wA
                    if !smooth ? (d0 < 0 || d1 < 0 || d2 < 0) : (d0 < t0 || d1 < t1 || d2 < t2) {
                        // Outside by the stepped values: drawn after all if the exact ones put the
                        // centre strictly inside (the exact second look, see `TriangleEdges`).
                        let x = Float(px)
                        d0 = a0 * x + r0; d1 = a1 * x + r1; d2 = a2 * x + r2
                        guard d0 > t0 && d1 > t1 && d2 > t2 else { continue }
                    }
                    let idx = row + px
                    var coverage: Float = 1
                    // Within half a pixel of a silhouette edge, inside pixels are partly covered too.
                    if smooth {
                        if s0 { coverage = min(coverage, max(0, d0 + 0.5)) }
                        if s1 { coverage = min(coverage, max(0, d1 + 0.5)) }
                        if s2 { coverage = min(coverage, max(0, d2 + 0.5)) }
                    }
                    if !smooth || (d0 >= 0 && d1 >= 0 && d2 >= 0) {
                        guard wHere > z[idx] else { continue }
                        touched = true
                        if writesDepth && !deferDepth { z[idx] = wHere }
                        q.push(idx, d1 * g1, d2 * g2, weight: wHere, coverage: coverage, writesDepth: writesDepth)
                    } else {
                        // Anti-aliasing fringe: attributes of the nearest point inside (clamped barycentrics).
                        let l0 = max(d0, 0) * k0, l1 = max(d1, 0) * k1, l2 = max(d2, 0) * k2
                        let lw0 = max(d0, 0) * g0, lw1 = max(d1, 0) * g1, lw2 = max(d2, 0) * g2
                        let sum = l0 + l1 + l2, lwSum = lw0 + lw1 + lw2
                        guard sum > 0 && lwSum > 0 else { continue }
                        guard lwSum / sum > z[idx] else { continue }
                        touched = true
                        q.push(idx, lw1, lw2, weight: lwSum, coverage: coverage, writesDepth: false)
                    }
                    if q.count == FragmentQueue.capacity { q.flush(shader) }
                }
            }
        }
        if m != 0 { rows(smooth: true) } else { rows(smooth: false) }
        return touched ? PixelRect(firstX: e.minX, firstY: e.minY, lastX: e.maxX, lastY: e.maxY) : nil
    }
}

/// The queue being filled during one `rasterizeQueued` call, with the buffers its flush blends into.
struct QueueWriter {
    let first: UnsafeMutablePointer<Float>
    let second: UnsafeMutablePointer<Float>
    let weights: UnsafeMutablePointer<Float>
    let coverages: UnsafeMutablePointer<Float>
    let pixels: UnsafeMutablePointer<Float>
    let slots: UnsafeMutablePointer<Int32>
    let writesDepth: UnsafeMutablePointer<Bool>
    let corners: UnsafeMutablePointer<SurfaceVarying>
    let mixed: UnsafeMutablePointer<SurfaceVarying>
    let rgb: UnsafeMutablePointer<UInt8>
    let z: UnsafeMutablePointer<Float>
    let toLinear: UnsafePointer<Float>
    let toSRGB: UnsafePointer<UInt8>
    /// 24 floats: a batch's encoded channels (the R lanes, the G lanes, the B lanes).
    let encoded: UnsafeMutablePointer<Float>
    var count = 0
    /// Slots in use; the triangle being covered sits at `slotCount` until its first fragment is
    /// queued (a triangle that queues nothing takes no slot) and at `slotCount − 1` after.
    var slotCount = 0
    var currentQueued = false

    init(first: UnsafeMutablePointer<Float>, second: UnsafeMutablePointer<Float>, weights: UnsafeMutablePointer<Float>,
         coverages: UnsafeMutablePointer<Float>, pixels: UnsafeMutablePointer<Float>, slots: UnsafeMutablePointer<Int32>,
         writesDepth: UnsafeMutablePointer<Bool>, corners: UnsafeMutablePointer<SurfaceVarying>, mixed: UnsafeMutablePointer<SurfaceVarying>,
         rgb: UnsafeMutablePointer<UInt8>, z: UnsafeMutablePointer<Float>, toLinear: UnsafePointer<Float>, toSRGB: UnsafePointer<UInt8>,
         encoded: UnsafeMutablePointer<Float>) {
        self.first = first
        self.second = second
        self.weights = weights
        self.coverages = coverages
        self.pixels = pixels
        self.slots = slots
        self.writesDepth = writesDepth
        self.corners = corners
        self.mixed = mixed
        self.rgb = rgb
        self.z = z
        self.toLinear = toLinear
        self.toSRGB = toSRGB
        self.encoded = encoded
    }

    /// Makes the triangle with corner varyings v0, v1, v2 the one that `push` queues fragments of;
    /// returns what it stores for it: corner 0 and the edges to corners 1 and 2.
    @inline(__always) @discardableResult
    mutating func begin(_ v0: SurfaceVarying, _ v1: SurfaceVarying, _ v2: SurfaceVarying)
        -> (corner: SurfaceVarying, edge1: SurfaceVarying, edge2: SurfaceVarying) {
        let c = corners + 3 * slotCount
        c[0] = v0
        c[1] = v1 + v0 * -1
        c[2] = v2 + v0 * -1
        currentQueued = false
        return (c[0], c[1], c[2])
    }

    /// Queues a fragment of the current triangle whose corners 1 and 2 weigh p1 and p2 out of
    /// `weight` (their barycentrics are p1 / weight and p2 / weight).
    @inline(__always)
    mutating func push(_ pixel: Int, _ p1: Float, _ p2: Float, weight: Float, coverage: Float, writesDepth depth: Bool) {
        if !currentQueued { currentQueued = true; slotCount += 1 }
        let k = count
        first[k] = p1
        second[k] = p2
        weights[k] = weight
        coverages[k] = coverage
        pixels[k] = Float(pixel)
        slots[k] = Int32(slotCount - 1)
        writesDepth[k] = depth
        count = k + 1
    }

    /// Shades the queued fragments and blends them into the image in queue order; empties the queue.
    /// Kept out of line so that the pixel loop around it keeps its registers.
    @inline(never)
    mutating func flush<S: BatchShader>(_ shader: S) {
        guard count > 0 else { return }
        var k = 0
        while k < count {
            flushBatch(shader, at: k, lanes: min(8, count - k))
            k += 8
        }
        count = 0
        // The triangle being covered keeps its corners, now in slot 0.
        let current = currentQueued ? slotCount - 1 : slotCount
        if current > 0 {
            corners[0] = corners[3 * current]; corners[1] = corners[3 * current + 1]; corners[2] = corners[3 * current + 2]
        }
        slotCount = currentQueued ? 1 : 0
    }

    /// The varyings of fragments k ..< k + 8 divided by their weights, as `shade` reads them.
    @inline(__always)
    func varyings(at k: Int, lanes: Int) -> SurfaceVarying8 {
        let r = 1 / UnsafeRawPointer(weights + k).loadUnaligned(as: SIMD8<Float>.self)
        let b1 = UnsafeRawPointer(first + k).loadUnaligned(as: SIMD8<Float>.self) * r
        let b2 = UnsafeRawPointer(second + k).loadUnaligned(as: SIMD8<Float>.self) * r
        let slot = Int(slots[k])
        if slot == Int(slots[k + lanes - 1]) {
            // One triangle (slots only grow along the queue): corner 0 plus the two edges, weighted.
            // Lanes past `lanes` hold stale weights: shaded, never blended.
            return SurfaceVarying8(corner: corners[3 * slot], edge1: corners[3 * slot + 1], edge2: corners[3 * slot + 2], b1: b1, b2: b2)
        }
        // Several triangles: each lane from its own corners, then turned into structure-of-arrays form.
        for lane in 0..<8 {
            let s = lane < lanes ? 3 * Int(slots[k + lane]) : 3 * slot
            mixed[lane] = corners[s] + corners[s + 1] * b1[lane] + corners[s + 2] * b2[lane]
        }
        let v = UnsafeRawPointer(mixed).assumingMemoryBound(to: SIMD4<Float>.self)
        @inline(__always) func gather(_ register: Int, _ lane: Int) -> SIMD8<Float> {
            // Fragment i's varying is registers 3i, 3i + 1, 3i + 2.
            SIMD8<Float>(v[register][lane], v[3 + register][lane], v[6 + register][lane], v[9 + register][lane],
                         v[12 + register][lane], v[15 + register][lane], v[18 + register][lane], v[21 + register][lane])
        }
        return SurfaceVarying8(vx: gather(0, 0), vy: gather(0, 1), vz: gather(0, 2),
                               nx: gather(1, 0), ny: gather(1, 1), nz: gather(1, 2),
                               u: gather(0, 3), v: gather(1, 3),
                               dr: gather(2, 0), dg: gather(2, 1), db: gather(2, 2), filter: gather(2, 3))
    }

    /// Writes lane `lane` of the batch in `encoded` (clamped, scaled to `toSRGB` indices plus 0.5:
    /// R lanes, G lanes, B lanes) as the sRGB pixel at `pixel`.
    @inline(__always)
    func writeEncoded(lane: Int, to pixel: UnsafeMutablePointer<UInt8>) {
        pixel[0] = toSRGB[Int(encoded[lane])]
        pixel[1] = toSRGB[Int(encoded[8 + lane])]
        pixel[2] = toSRGB[Int(encoded[16 + lane])]
    }

    /// Shades and blends the fragments in slots k ..< k + lanes (lanes <= 8).
    @inline(__always)
    func flushBatch<S: BatchShader>(_ shader: S, at k: Int, lanes: Int) {
        let steps = Float(ColorTables.encodeSteps)
        let f = shader.shade(varyings(at: k, lanes: lanes))
        let coverage = UnsafeRawPointer(coverages + k).loadUnaligned(as: SIMD8<Float>.self)
        // Lanes past `lanes` get distinct negative pixel indices (never read or written).
        for lane in lanes..<8 { pixels[k + lane] = Float(-1 - lane) }
        let idx = UnsafeRawPointer(pixels + k).loadUnaligned(as: SIMD8<Float>.self)
        let zero = SIMD8<Float>(repeating: 0), one = SIMD8<Float>(repeating: 1)
        let partial = coverage .< one
        // (Stale lanes may make this true for nothing: it only costs the reads.)
        // (`.==` and `.!=` on vectors compiled to lane-by-lane loops here; `.<` and `.>` to one instruction.)
        @inline(__always) func nonzero(_ x: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> { (x .< zero) .| (x .> zero) }
        let readsDestination = any(partial .| nonzero(f.mulR) .| nonzero(f.mulG) .| nonzero(f.mulB))
        // Two fragments for one pixel in a batch (two triangles meeting there): the later must blend
        // over the earlier's result, so blend lane by lane.
        var distinct = true
        // A triangle covers each pixel once, so only a batch that spans triangles can hold one twice.
        if readsDestination && slots[k] != slots[k + lanes - 1] {
            let i = idx
            @inline(__always) func differs(_ r: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> { (i .< r) .| (i .> r) }
            distinct = all(differs(SIMD8(i[1], i[2], i[3], i[4], i[5], i[6], i[7], i[0]))
                .& differs(SIMD8(i[2], i[3], i[4], i[5], i[6], i[7], i[0], i[1]))
                .& differs(SIMD8(i[3], i[4], i[5], i[6], i[7], i[0], i[1], i[2]))
                .& differs(SIMD8(i[4], i[5], i[6], i[7], i[0], i[1], i[2], i[3])))
        }
        let deferDepth = shader.mayDiscard
        if distinct {
            var outR = f.addR, outG = f.addG, outB = f.addB
            if readsDestination {
                // Built from scalars in registers (writing lanes one by one went through memory).
                @inline(__always) func d(_ lane: Int, _ channel: Int) -> Float {
                    lane < lanes ? toLinear[Int(rgb[3 * Int(idx[lane]) + channel])] : 0
                }
                let dR = SIMD8<Float>(d(0, 0), d(1, 0), d(2, 0), d(3, 0), d(4, 0), d(5, 0), d(6, 0), d(7, 0))
                let dG = SIMD8<Float>(d(0, 1), d(1, 1), d(2, 1), d(3, 1), d(4, 1), d(5, 1), d(6, 1), d(7, 1))
                let dB = SIMD8<Float>(d(0, 2), d(1, 2), d(2, 2), d(3, 2), d(4, 2), d(5, 2), d(6, 2), d(7, 2))
                outR += dR * f.mulR; outG += dG * f.mulG; outB += dB * f.mulB
                outR.replace(with: dR + (outR - dR) * coverage, where: partial)
                outG.replace(with: dG + (outG - dG) * coverage, where: partial)
                outB.replace(with: dB + (outB - dB) * coverage, where: partial)
            }
            // Stored once and read back lane by lane (extracting lanes in the loop re-stored the
            // vectors for every lane).
            let e = UnsafeMutableRawPointer(encoded)
            e.storeBytes(of: Shading8.clamp01(outR) * steps + 0.5, as: SIMD8<Float>.self)
            e.storeBytes(of: Shading8.clamp01(outG) * steps + 0.5, toByteOffset: 32, as: SIMD8<Float>.self)
            e.storeBytes(of: Shading8.clamp01(outB) * steps + 0.5, toByteOffset: 64, as: SIMD8<Float>.self)
            let keepAll = all(f.keep)
            for lane in 0..<lanes where keepAll || f.keep[lane] {
                let p = Int(pixels[k + lane])
                if deferDepth && writesDepth[k + lane] { z[p] = weights[k + lane] }
                writeEncoded(lane: lane, to: rgb + 3 * p)
            }
            return
        }
        for lane in 0..<lanes where f.keep[lane] {
            let p = Int(idx[lane])
            if deferDepth && writesDepth[k + lane] { z[p] = weights[k + lane] }
            let o = 3 * p
            var out = SIMD3<Float>(f.addR[lane], f.addG[lane], f.addB[lane])
            let mul = SIMD3<Float>(f.mulR[lane], f.mulG[lane], f.mulB[lane])
            let cov = coverage[lane]
            if cov < 1 || mul != .zero {
                let dst = SIMD3<Float>(toLinear[Int(rgb[o])], toLinear[Int(rgb[o + 1])], toLinear[Int(rgb[o + 2])])
                out += dst * mul
                if cov < 1 { out = dst + (out - dst) * cov }
            }
            let e = SIMD3<Float>(min(max(out.x, 0), 1), min(max(out.y, 0), 1), min(max(out.z, 0), 1)) * steps + 0.5
            rgb[o] = toSRGB[Int(e.x)]
            rgb[o + 1] = toSRGB[Int(e.y)]
            rgb[o + 2] = toSRGB[Int(e.z)]
        }
    }
}
