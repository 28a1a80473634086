import Imaging

/// Scan conversion of `ScreenTriangle`s into an `RGBImage` and a `DepthBuffer`, in place
/// (after tinyrenderer's `rasterize`): a pixel is covered when its centre is inside the triangle
/// (pixel centres at integer coordinates, the `Imaging` convention); the shader's varyings are
/// interpolated perspective-correctly (Heckbert & Moreton 1991: v/z and 1/z are affine in screen
/// space, so both are stepped along each row by one addition per pixel and divided once); the
/// depth test keeps the nearest surface (`DepthBuffer` holds 1/z). Silhouette edges flagged in
/// `smoothEdges` are anti-aliased by coverage: pixels up to half a pixel outside such an edge are
/// shaded with the triangle's attributes at the nearest point inside (clamped barycentrics) and
/// blended by their covered fraction, approximated from the centre's signed distance to the
/// edge; they do not write depth. Blending is in linear light.
public enum Rasterizer {
    /// Pixels outside `scissor` (inclusive pixel bounds), when given, are left untouched.
    public static func rasterize<S: FragmentShader>(_ triangles: [ScreenTriangle], shader: S,
                                                    color: inout RGBImage, depth: inout DepthBuffer,
                                                    scissor: PixelRect? = nil) {
        precondition(color.width == depth.width && color.height == depth.height, "colour and depth sizes differ")
        guard color.width > 0 && color.height > 0 else { return }
        let writesColor = shader.writesColor, writesDepth = shader.writesDepth
        guard writesColor || writesDepth else { return }
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let width = color.width, height = color.height
        let clip = (scissor ?? PixelRect(x: 0, y: 0, width: width, height: height))
            .overlap(PixelRect(x: 0, y: 0, width: width, height: height))
        guard let clip else { return }
        @inline(__always) func grow(_ r: PixelRect?) {
            guard let r else { return }
            minX = min(minX, r.x); minY = min(minY, r.y); maxX = max(maxX, r.lastX); maxY = max(maxY, r.lastY)
        }
        if !writesColor {
            depth.values.withUnsafeMutableBufferPointer { z in
                triangles.withUnsafeBufferPointer { tris in
                    for t in tris { grow(drawDepth(t, width: width, clip: clip, z: z)) }
                }
            }
        } else {
            ColorTables.toLinear.withUnsafeBufferPointer { toLinear in
                ColorTables.toSRGB.withUnsafeBufferPointer { toSRGB in
                    color.pixels.withUnsafeMutableBufferPointer { rgb in
                        depth.values.withUnsafeMutableBufferPointer { z in
                            triangles.withUnsafeBufferPointer { tris in
                                for t in tris {
                                    grow(drawTriangle(t, shader: shader, width: width, clip: clip, rgb: rgb, z: z,
                                                      toLinear: toLinear, toSRGB: toSRGB))
                                }
                            }
                        }
                    }
                }
            }
        }
        if maxX >= 0 && writesDepth { depth.markDirty(minX: minX, minY: minY, maxX: maxX, maxY: maxY) }
    }

    /// Draws one triangle with a colour-writing shader; returns its pixel box when it passed the depth test anywhere.
    @inline(__always)
    static func drawTriangle<S: FragmentShader>(_ t: ScreenTriangle, shader: S, width: Int, clip: PixelRect,
                                                rgb: UnsafeMutableBufferPointer<UInt8>, z: UnsafeMutableBufferPointer<Float>,
                                                toLinear: UnsafeBufferPointer<Float>, toSRGB: UnsafeBufferPointer<UInt8>) -> PixelRect? {
        guard let e = TriangleEdges(t, clip: clip, smoothEdges: t.smoothEdges) else { return nil }
        let writesDepth = shader.writesDepth
        let m = t.smoothEdges
        let a0 = e.a0, a1 = e.a1, a2 = e.a2, b0 = e.b0, b1 = e.b1, b2 = e.b2, c0 = e.c0, c1 = e.c1, c2 = e.c2
        let t0 = e.t0, t1 = e.t1, t2 = e.t2
        let s0 = t0 != 0, s1 = t1 != 0, s2 = t2 != 0
        let k0 = e.k0, k1 = e.k1, k2 = e.k2
        let (v0, v1, v2) = corners(of: t, shader: shader)
        // W = sum lambda_i w_i (= 1/z) and N = sum lambda_i w_i v_i as planes around the box's
        // corner (ox, oy); varying = N / W.
        let plane = InverseDepthPlane(e, t)
        let g0 = plane.g0, g1 = plane.g1, g2 = plane.g2, ox = plane.ox, oy = plane.oy
        let eo0 = plane.eo0, eo1 = plane.eo1, eo2 = plane.eo2, wA = plane.wA, wB = plane.wB, wO = plane.wO
        let nA = v0 * (a0 * g0) + v1 * (a1 * g1) + v2 * (a2 * g2)
        let nB = v0 * (b0 * g0) + v1 * (b1 * g1) + v2 * (b2 * g2)
        let nO = v0 * (eo0 * g0) + v1 * (eo1 * g1) + v2 * (eo2 * g2)
        let steps = Float(ColorTables.encodeSteps)
        let frontFacing = t.frontFacing, source = Int(t.source)
        var touched = false
        var pendingIndex = -1, pendingVarying = v0, pendingInside = false, pendingInvZ: Float = 0, pendingCoverage: Float = 1
        @inline(__always) func finish(_ idx: Int, _ fragment: Fragment?, _ inside: Bool, _ invZ: Float, _ coverage: Float) {
            // A discarded (MASK) fragment leaves depth alone, so it does not occlude.
            guard let f = fragment else { return }
            if writesDepth && inside { z[idx] = invZ }
            let o = 3 * idx
            var out = f.add
            // Opaque and fully covered: the destination does not matter, skip reading it.
            if coverage < 1 || f.multiply != .zero {
                let dst = SIMD3<Float>(toLinear[Int(rgb[o])], toLinear[Int(rgb[o + 1])], toLinear[Int(rgb[o + 2])])
                out += dst * f.multiply
                if coverage < 1 { out = dst + (out - dst) * coverage }
            }
            let q = pointwiseMin(pointwiseMax(out, .zero), SIMD3<Float>(repeating: 1)) * steps + 0.5
            rgb[o] = toSRGB[Int(q.x)]
            rgb[o + 1] = toSRGB[Int(q.y)]
            rgb[o + 2] = toSRGB[Int(q.z)]
        }
        for py in e.minY...e.maxY {
            let fy = Float(py)
            guard let (xStart, xEnd) = e.span(y: fy) else { continue }
            let fx = Float(xStart)
            let r0 = b0 * fy + c0, r1 = b1 * fy + c1, r2 = b2 * fy + c2
            var e0 = a0 * fx + r0, e1 = a1 * fx + r1, e2 = a2 * fx + r2
            let dx = fx - ox, dy = fy - oy
            var w = wO + wA * dx + wB * dy
            var n = nO + nA * dx + nB * dy
            let row = py * width
            for px in xStart...xEnd {
                var d0 = e0, d1 = e1, d2 = e2
                let wHere = w, nHere = n
                e0 += a0; e1 += a1; e2 += a2; w += wA; n = n + nA
                if d0 < t0 || d1 < t1 || d2 < t2 {
                    // Outside by the stepped values: drawn after all if the exact ones put the centre
                    // strictly inside (the exact second look, see `TriangleEdges`).
                    let x = Float(px)
                    d0 = a0 * x + r0; d1 = a1 * x + r1; d2 = a2 * x + r2
                    guard d0 > t0 && d1 > t1 && d2 > t2 else { continue }
                }
                let idx = row + px
                let inside = d0 >= 0 && d1 >= 0 && d2 >= 0
                let invZ: Float, varying: S.Corner
                if inside {
                    invZ = wHere
                    guard invZ > z[idx] else { continue }
                    varying = nHere * (1 / wHere)
                } else {
                    // Anti-aliasing fringe: attributes of the nearest point inside (clamped barycentrics).
                    let l0 = max(d0, 0) * k0, l1 = max(d1, 0) * k1, l2 = max(d2, 0) * k2
                    let lw0 = max(d0, 0) * g0, lw1 = max(d1, 0) * g1, lw2 = max(d2, 0) * g2
                    let sum = l0 + l1 + l2, lwSum = lw0 + lw1 + lw2
                    guard sum > 0 && lwSum > 0 else { continue }
                    invZ = lwSum / sum
                    guard invZ > z[idx] else { continue }
                    let r = 1 / lwSum
                    varying = v0 * (lw0 * r) + v1 * (lw1 * r) + v2 * (lw2 * r)
                }
                touched = true
                var coverage: Float = 1
                if m != 0 {
                    if s0 { coverage = min(coverage, max(0, d0 + 0.5)) }
                    if s1 { coverage = min(coverage, max(0, d1 + 0.5)) }
                    if s2 { coverage = min(coverage, max(0, d2 + 0.5)) }
                }
                // Pixels are shaded in pairs: two independent fragments in one block give the
                // core two dependency chains (divide, square root, ...) to overlap.
                if pendingIndex >= 0 {
                    let f1 = shader.fragment(triangle: source, varying: pendingVarying, frontFacing: frontFacing)
                    let f2 = shader.fragment(triangle: source, varying: varying, frontFacing: frontFacing)
                    finish(pendingIndex, f1, pendingInside, pendingInvZ, pendingCoverage)
                    finish(idx, f2, inside, invZ, coverage)
                    pendingIndex = -1
                } else {
                    pendingIndex = idx; pendingVarying = varying; pendingInside = inside; pendingInvZ = invZ; pendingCoverage = coverage
                }
            }
        }
        if pendingIndex >= 0 {
            finish(pendingIndex, shader.fragment(triangle: source, varying: pendingVarying, frontFacing: frontFacing),
                   pendingInside, pendingInvZ, pendingCoverage)
        }
        return touched ? PixelRect(firstX: e.minX, firstY: e.minY, lastX: e.maxX, lastY: e.maxY) : nil
    }

    /// Depth only (occluders): the nearest 1/z of the covered pixel centres, no fringe.
    @inline(__always)
    static func drawDepth(_ t: ScreenTriangle, width: Int, clip: PixelRect, z: UnsafeMutableBufferPointer<Float>) -> PixelRect? {
        guard let e = TriangleEdges(t, clip: clip, smoothEdges: 0) else { return nil }
        let a0 = e.a0, a1 = e.a1, a2 = e.a2, b0 = e.b0, b1 = e.b1, b2 = e.b2, c0 = e.c0, c1 = e.c1, c2 = e.c2
        let plane = InverseDepthPlane(e, t)
        let ox = plane.ox, oy = plane.oy, wA = plane.wA, wB = plane.wB, wO = plane.wO
        var touched = false
        for py in e.minY...e.maxY {
            let fy = Float(py)
            guard let (xStart, xEnd) = e.span(y: fy) else { continue }
            let fx = Float(xStart)
            var e0 = a0 * fx + b0 * fy + c0, e1 = a1 * fx + b1 * fy + c1, e2 = a2 * fx + b2 * fy + c2
            var w = wO + wA * (fx - ox) + wB * (fy - oy)
            let row = py * width
            for px in xStart...xEnd {
                if e0 >= 0 && e1 >= 0 && e2 >= 0 && w > z[row + px] {
                    z[row + px] = w
                    touched = true
                }
                e0 += a0; e1 += a1; e2 += a2; w += wA
            }
        }
        return touched ? PixelRect(firstX: e.minX, firstY: e.minY, lastX: e.maxX, lastY: e.maxY) : nil
    }
}

/// A triangle's edge functions and clipped pixel box. Edge i is opposite vertex i;
/// e_i(x, y) = a_i x + b_i y + c_i is the signed distance (pixels) of (x, y) from it, positive
/// inside, and the screen-space barycentric lambda_i = e_i k_i. A pixel is drawn when
/// e_i >= t_i for all i: t_i is 0, or −0.5 on an anti-aliased edge.
struct TriangleEdges {
    var a0: Float, a1: Float, a2: Float, b0: Float, b1: Float, b2: Float, c0: Float, c1: Float, c2: Float
    var k0: Float, k1: Float, k2: Float
    var t0: Float, t1: Float, t2: Float
    // Exact second look (issue 23, a hole in a Khronos lens; session 34). The colour loops step
    // e_i along a row by adding a_i, and the rounding drifts by up to about 10⁻⁴ px over a row;
    // two triangles sharing an edge step from different starts, so a pixel centre that close to
    // the edge could round to just below zero in both, and the backdrop showed through the dark
    // lens at yaw 0. Evaluated at the pixel as a_i x + (b_i y + c_i), the two functions are exact
    // negations (the midpoint form below; `drawSpans` evaluates them so everywhere), so a pixel
    // the stepped values reject is drawn after all when the exact values put it strictly inside:
    // one of the two triangles then covers it (an exact tie, a centre exactly on the edge, is
    // left to the stepped values as before). A pixel within the drift of a shared edge may still
    // be covered by both, as before. Only rejected pixels (a few per row end) pay for it:
    // nothing measurable over eight alternating bench runs, where evaluating every pixel cost
    // 0.06-0.10x of try-on/floor (session 33) and deciding every pixel within 1/256 px of an edge
    // exactly 0.055x.

    /// Reciprocals of a_i for the row spans (0 where a_i is 0).
    var ia0: Float, ia1: Float, ia2: Float
    var minX: Int, minY: Int, maxX: Int, maxY: Int

    /// Nil for degenerate or non-finite triangles and those with no pixel inside `clip`.
    @inline(__always)
    init?(_ t: ScreenTriangle, clip: PixelRect, smoothEdges m: UInt8) {
        let x0 = t.p0.x, y0 = t.p0.y, x1 = t.p1.x, y1 = t.p1.y, x2 = t.p2.x, y2 = t.p2.y
        let margin: Float = m != 0 ? 1 : 0
        let bx0 = max(clip.x, ceilInt(min(min(x0, x1), x2) - margin, clip.x, clip.lastX))
        let bx1 = min(clip.lastX, floorInt(max(max(x0, x1), x2) + margin, clip.x, clip.lastX))
        let by0 = max(clip.y, ceilInt(min(min(y0, y1), y2) - margin, clip.y, clip.lastY))
        let by1 = min(clip.lastY, floorInt(max(max(y0, y1), y2) + margin, clip.y, clip.lastY))
        guard bx0 <= bx1 && by0 <= by1 else { return nil }
        let area2 = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        guard abs(area2) > 1e-8, area2.isFinite else { return nil }
        let s: Float = area2 > 0 ? 1 : -1
        var a = SIMD3<Float>(y1 - y2, y2 - y0, y0 - y1) * s
        var b = SIMD3<Float>(x2 - x1, x0 - x2, x1 - x0) * s
        let lengths = (a * a + b * b).squareRoot()
        guard lengths.min() > 0 else { return nil }
        a /= lengths; b /= lengths
        // Each edge's offset from its midpoint, not from the cross products x1 y2 − x2 y1: those
        // are products of pixel coordinates (~10⁵ at 1280x960) whose float rounding (~0.03 px) is a
        // large part of a sub-pixel triangle. The barycentrics then summed to 0.9 or 1.1 and 1/z,
        // extrapolated, put a pixel of a tiny rim triangle 1–9 % nearer than it is, in front of the
        // lens that covers it: most of the lone light "speckles" inside the Khronos sunglasses'
        // lenses (issue 23). Here each term is about |x|·2⁻²⁴ ≈ 10⁻⁴ px. The midpoint (not one
        // corner) keeps a shared edge's function exactly the negation of its neighbour's, as the
        // cross products did, so no pixel centre on it falls between the two triangles (one
        // corner each way left a pixel-sized hole in a Khronos lens).
        let mx = SIMD3<Float>(x1 + x2, x2 + x0, x0 + x1) * 0.5, my = SIMD3<Float>(y1 + y2, y2 + y0, y0 + y1) * 0.5
        let c = -(a * mx + b * my)
        let k = lengths / abs(area2)
        minX = bx0; maxX = bx1; minY = by0; maxY = by1
        a0 = a.x; a1 = a.y; a2 = a.z; b0 = b.x; b1 = b.y; b2 = b.z; c0 = c.x; c1 = c.y; c2 = c.z
        k0 = k.x; k1 = k.y; k2 = k.z
        // Smooth-edge bits: bit k marks edge (k, k+1), which is opposite vertex (k + 2) % 3.
        t0 = (m & 2) != 0 ? -0.5 : 0
        t1 = (m & 4) != 0 ? -0.5 : 0
        t2 = (m & 1) != 0 ? -0.5 : 0
        ia0 = a0 != 0 ? 1 / a0 : 0
        ia1 = a1 != 0 ? 1 / a1 : 0
        ia2 = a2 != 0 ? 1 / a2 : 0
    }

    /// The pixels of row `y` inside all three edges, computed rather than scanned (thin triangles
    /// — rims, lens fans — would otherwise test mostly empty boxes). Widened by 0.01 px against
    /// rounding: the per-pixel test stays exact.
    @inline(__always)
    func span(y fy: Float) -> (Int, Int)? {
        var lo = Float(minX), hi = Float(maxX)
        @inline(__always) func narrow(_ a: Float, _ ia: Float, _ base: Float, _ t: Float) {
            // e(x) = a x + base >= t: a bound on x on one side, or the whole row in or out.
            if a > 0 { lo = max(lo, (t - base) * ia) } else if a < 0 { hi = min(hi, (t - base) * ia) } else if base < t { hi = -1 }
        }
        narrow(a0, ia0, b0 * fy + c0, t0)
        narrow(a1, ia1, b1 * fy + c1, t1)
        narrow(a2, ia2, b2 * fy + c2, t2)
        guard lo <= hi + 0.02 else { return nil }
        let xStart = max(minX, ceilInt(lo - 0.01, minX, maxX)), xEnd = min(maxX, floorInt(hi + 0.01, minX, maxX))
        return xStart <= xEnd ? (xStart, xEnd) : nil
    }
}

/// ⌈v⌉ for v clamped to [lo − 1, hi + 1] (NaN gives a value outside [lo, hi] or a bound), without
/// a libm call: the bounds make the conversion to Int safe, and plain x86-64 has no rounding instruction.
@inline(__always) func ceilInt(_ v: Float, _ lo: Int, _ hi: Int) -> Int {
    let c = min(Float(hi + 1), max(Float(lo - 1), v)) // this order maps NaN to lo − 1
    let i = Int(c)
    return Float(i) < c ? i + 1 : i
}

/// ⌊v⌋ for v clamped to [lo − 1, hi + 1], as `ceilInt`.
@inline(__always) func floorInt(_ v: Float, _ lo: Int, _ hi: Int) -> Int {
    let c = min(Float(hi + 1), max(Float(lo - 1), v)) // this order maps NaN to lo − 1
    let i = Int(c)
    return Float(i) > c ? i - 1 : i
}
