import Imaging

/// Scan conversion of `ScreenTriangle`s into an `RGBImage` and a `DepthBuffer`, in place
/// (after tinyrenderer's `rasterize`): a pixel is covered when its centre is inside the triangle
/// (pixel centres at integer coordinates, the `Imaging` convention); attributes are interpolated
/// perspective-correctly (barycentrics weighted by 1/z, Heckbert & Moreton 1991); the depth test
/// keeps the nearest surface (`DepthBuffer` holds 1/z). Silhouette edges flagged in
/// `smoothEdges` are anti-aliased by coverage: pixels up to half a pixel outside such an edge are
/// shaded and blended by their covered fraction, approximated from the centre's signed distance
/// to the edge; they do not write depth. Blending is in linear light.
public enum Rasterizer {
    /// Pixels outside `scissor` (inclusive pixel bounds), when given, are left untouched.
    public static func rasterize<S: FragmentShader>(_ triangles: [ScreenTriangle], shader: S,
                                                    color: inout RGBImage, depth: inout DepthBuffer,
                                                    scissor: PixelBounds? = nil) {
        precondition(color.width == depth.width && color.height == depth.height, "colour and depth sizes differ")
        guard color.width > 0 && color.height > 0 else { return }
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let width = color.width, height = color.height
        let clip = (scissor ?? PixelBounds(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1))
            .intersection(PixelBounds(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1))
        guard let clip else { return }
        ColorTables.toLinear.withUnsafeBufferPointer { toLinear in
            ColorTables.toSRGB.withUnsafeBufferPointer { toSRGB in
                color.pixels.withUnsafeMutableBufferPointer { rgb in
                    depth.values.withUnsafeMutableBufferPointer { z in
                        for t in triangles {
                            let r = drawTriangle(t, shader: shader, width: width, clip: clip, rgb: rgb, z: z,
                                                 toLinear: toLinear, toSRGB: toSRGB)
                            if r.maxX >= 0 {
                                minX = min(minX, r.minX); minY = min(minY, r.minY); maxX = max(maxX, r.maxX); maxY = max(maxY, r.maxY)
                            }
                        }
                    }
                }
            }
        }
        if maxX >= 0 && shader.writesDepth { depth.markDirty(minX: minX, minY: minY, maxX: maxX, maxY: maxY) }
    }

    @inline(__always)
    static func drawTriangle<S: FragmentShader>(_ t: ScreenTriangle, shader: S, width: Int, clip: PixelBounds,
                                                rgb: UnsafeMutableBufferPointer<UInt8>, z: UnsafeMutableBufferPointer<Float>,
                                                toLinear: UnsafeBufferPointer<Float>, toSRGB: UnsafeBufferPointer<UInt8>)
        -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
        let none = (minX: 0, minY: 0, maxX: -1, maxY: -1)
        let x0 = t.p0.x, y0 = t.p0.y, x1 = t.p1.x, y1 = t.p1.y, x2 = t.p2.x, y2 = t.p2.y
        let area2 = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        guard abs(area2) > 1e-8, area2.isFinite else { return none }
        let s: Float = area2 > 0 ? 1 : -1
        // Edge i is opposite vertex i; e_i(x, y) = a_i x + b_i y + c_i is the signed distance (pixels)
        // of (x, y) from it, positive inside. lambda_i = e_i * k_i.
        var a = SIMD3<Float>(y1 - y2, y2 - y0, y0 - y1) * s
        var b = SIMD3<Float>(x2 - x1, x0 - x2, x1 - x0) * s
        var c = SIMD3<Float>(x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0) * s
        let lengths = (a * a + b * b).squareRoot()
        guard lengths.min() > 0 else { return none }
        a /= lengths; b /= lengths; c /= lengths
        let k = lengths / abs(area2)
        // Smooth-edge bits: bit k marks edge (k, k+1), which is opposite vertex (k + 2) % 3.
        let m = t.smoothEdges
        let smooth = SIMD3<Float>((m & 2) != 0 ? 1 : 0, (m & 4) != 0 ? 1 : 0, (m & 1) != 0 ? 1 : 0)
        let threshold = smooth * -0.5
        let margin: Float = m != 0 ? 1 : 0
        // Bounds in Float first: coordinates far outside the image must not overflow Int.
        let bx0 = Int(max(Float(clip.minX), (min(x0, x1, x2) - margin).rounded(.up)))
        let bx1 = Int(min(Float(clip.maxX), (max(x0, x1, x2) + margin).rounded(.down)))
        let by0 = Int(max(Float(clip.minY), (min(y0, y1, y2) - margin).rounded(.up)))
        let by1 = Int(min(Float(clip.maxY), (max(y0, y1, y2) + margin).rounded(.down)))
        guard bx0 <= bx1 && by0 <= by1 else { return none }
        let w = SIMD3<Float>(t.p0.z, t.p1.z, t.p2.z)
        let writesDepth = shader.writesDepth, writesColor = shader.writesColor
        var touched = false
        // Scalar copies: the per-pixel loop below is written out channel by channel, which the
        // optimiser keeps in registers (generic SIMD3 reductions were out-of-line calls).
        let a0 = a.x, a1 = a.y, a2 = a.z, b0 = b.x, b1 = b.y, b2 = b.z, c0 = c.x, c1 = c.y, c2 = c.z
        let k0 = k.x, k1 = k.y, k2 = k.z, w0 = w.x, w1 = w.y, w2 = w.z
        let t0 = threshold.x, t1 = threshold.y, t2 = threshold.z
        let s0 = smooth.x != 0, s1 = smooth.y != 0, s2 = smooth.z != 0
        let steps = Float(ColorTables.encodeSteps)
        let unclipped = t.b0 == SIMD3<Float>(1, 0, 0) && t.b1 == SIMD3<Float>(0, 1, 0) && t.b2 == SIMD3<Float>(0, 0, 1)
        @inline(__always) func narrow(_ a: Float, _ base: Float, _ t: Float, _ lo: inout Float, _ hi: inout Float) {
            // e(x) = a x + base >= t: a bound on x on one side, or the whole row in or out.
            if a > 0 { lo = max(lo, (t - base) / a) } else if a < 0 { hi = min(hi, (t - base) / a) } else if base < t { hi = -1 }
        }
        for py in by0...by1 {
            let fy = Float(py)
            // The span of the row inside all three edges, computed rather than scanned: thin
            // triangles (rims, lens fans) would otherwise test mostly empty bounding boxes. Widened
            // by 0.01 px against rounding; the per-pixel test below stays exact.
            var lo = Float(bx0), hi = Float(bx1)
            narrow(a0, b0 * fy + c0, t0, &lo, &hi)
            narrow(a1, b1 * fy + c1, t1, &lo, &hi)
            narrow(a2, b2 * fy + c2, t2, &lo, &hi)
            guard lo <= hi + 0.02 else { continue }
            let xStart = max(bx0, Int((lo - 0.01).rounded(.up))), xEnd = min(bx1, Int((hi + 0.01).rounded(.down)))
            guard xStart <= xEnd else { continue }
            let fx = Float(xStart)
            var e0 = a0 * fx + b0 * fy + c0, e1 = a1 * fx + b1 * fy + c1, e2 = a2 * fx + b2 * fy + c2
            let row = py * width
            for px in xStart...xEnd {
                let d0 = e0, d1 = e1, d2 = e2
                e0 += a0; e1 += a1; e2 += a2
                if d0 < t0 || d1 < t1 || d2 < t2 { continue }
                let lw0 = max(d0, 0) * k0 * w0, lw1 = max(d1, 0) * k1 * w1, lw2 = max(d2, 0) * k2 * w2
                let sum = max(d0, 0) * k0 + max(d1, 0) * k1 + max(d2, 0) * k2
                let lwSum = lw0 + lw1 + lw2
                guard sum > 0 && lwSum > 0 else { continue }
                // Inside the triangle the clamped barycentrics already sum to 1 (up to rounding).
                let inside = d0 >= 0 && d1 >= 0 && d2 >= 0
                let invZ = inside ? lwSum : lwSum / sum
                let idx = row + px
                guard invZ > z[idx] else { continue }
                touched = true
                guard writesColor else {
                    if writesDepth && inside { z[idx] = invZ }
                    continue
                }
                let r = 1 / lwSum
                let q0 = lw0 * r, q1 = lw1 * r, q2 = lw2 * r
                let bary = unclipped ? SIMD3<Float>(q0, q1, q2) : t.b0 * q0 + t.b1 * q1 + t.b2 * q2
                // A discarded (MASK) fragment leaves depth alone, so it does not occlude.
                guard let f = shader.fragment(triangle: Int(t.source), barycentric: bary, frontFacing: t.frontFacing) else { continue }
                if writesDepth && inside { z[idx] = invZ }
                var coverage: Float = 1
                if m != 0 {
                    if s0 { coverage = min(coverage, max(0, d0 + 0.5)) }
                    if s1 { coverage = min(coverage, max(0, d1 + 0.5)) }
                    if s2 { coverage = min(coverage, max(0, d2 + 0.5)) }
                }
                let o = 3 * idx
                var outR = f.add.x, outG = f.add.y, outB = f.add.z
                // Opaque and fully covered: the destination does not matter, skip reading it.
                if coverage < 1 || f.multiply != .zero {
                    let r0 = toLinear[Int(rgb[o])], g0 = toLinear[Int(rgb[o + 1])], bl0 = toLinear[Int(rgb[o + 2])]
                    outR += r0 * f.multiply.x; outG += g0 * f.multiply.y; outB += bl0 * f.multiply.z
                    if coverage < 1 {
                        outR = r0 + (outR - r0) * coverage; outG = g0 + (outG - g0) * coverage; outB = bl0 + (outB - bl0) * coverage
                    }
                }
                rgb[o] = toSRGB[Int(min(max(outR, 0), 1) * steps + 0.5)]
                rgb[o + 1] = toSRGB[Int(min(max(outG, 0), 1) * steps + 0.5)]
                rgb[o + 2] = toSRGB[Int(min(max(outB, 0), 1) * steps + 0.5)]
            }
        }
        return touched ? (bx0, by0, bx1, by1) : none
    }

}
