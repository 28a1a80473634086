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
    public static func rasterize<S: FragmentShader>(_ triangles: [ScreenTriangle], shader: S,
                                                    color: inout RGBImage, depth: inout DepthBuffer) {
        precondition(color.width == depth.width && color.height == depth.height, "colour and depth sizes differ")
        guard color.width > 0 && color.height > 0 else { return }
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let width = color.width, height = color.height
        ColorTables.toLinear.withUnsafeBufferPointer { toLinear in
            ColorTables.toSRGB.withUnsafeBufferPointer { toSRGB in
                color.pixels.withUnsafeMutableBufferPointer { rgb in
                    depth.values.withUnsafeMutableBufferPointer { z in
                        for t in triangles {
                            let r = drawTriangle(t, shader: shader, width: width, height: height, rgb: rgb, z: z,
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
    static func drawTriangle<S: FragmentShader>(_ t: ScreenTriangle, shader: S, width: Int, height: Int,
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
        let bx0 = max(0, Int((min(x0, x1, x2) - margin).rounded(.up)))
        let bx1 = min(width - 1, Int((max(x0, x1, x2) + margin).rounded(.down)))
        let by0 = max(0, Int((min(y0, y1, y2) - margin).rounded(.up)))
        let by1 = min(height - 1, Int((max(y0, y1, y2) + margin).rounded(.down)))
        guard bx0 <= bx1 && by0 <= by1 else { return none }
        let w = SIMD3<Float>(t.p0.z, t.p1.z, t.p2.z)
        let writesDepth = shader.writesDepth, writesColor = shader.writesColor
        var touched = false
        for py in by0...by1 {
            let fy = Float(py)
            var e = a * Float(bx0) + b * fy + c
            let row = py * width
            for px in bx0...bx1 {
                defer { e += a }
                if any(e .< threshold) { continue }
                var lambda = pointwiseMax(e, .zero) * k
                let inside = !any(e .< .zero)
                let sum = lambda.sum()
                guard sum > 0 else { continue }
                lambda /= sum
                let invZ = (lambda * w).sum()
                let idx = row + px
                guard invZ > z[idx] else { continue }
                touched = true
                guard writesColor else {
                    if writesDepth && inside { z[idx] = invZ }
                    continue
                }
                let pw = lambda * w / invZ
                let bary = t.b0 * pw.x + t.b1 * pw.y + t.b2 * pw.z
                // A discarded (MASK) fragment leaves depth alone, so it does not occlude.
                guard let f = shader.fragment(triangle: Int(t.source), barycentric: bary, frontFacing: t.frontFacing) else { continue }
                if writesDepth && inside { z[idx] = invZ }
                let coverage: Float = m != 0 ? smoothCoverage(e, smooth) : 1
                let o = 3 * idx
                let dst = SIMD3<Float>(toLinear[Int(rgb[o])], toLinear[Int(rgb[o + 1])], toLinear[Int(rgb[o + 2])])
                var out = dst * f.multiply + f.add
                if coverage < 1 { out = dst + (out - dst) * coverage }
                let q = pointwiseMin(pointwiseMax(out, .zero), SIMD3<Float>(repeating: 1)) * Float(ColorTables.encodeSteps) + 0.5
                rgb[o] = toSRGB[Int(q.x)]; rgb[o + 1] = toSRGB[Int(q.y)]; rgb[o + 2] = toSRGB[Int(q.z)]
            }
        }
        return touched ? (bx0, by0, bx1, by1) : none
    }

    /// Covered fraction from the distances to the smooth edges (others count as fully covering).
    @inline(__always) static func smoothCoverage(_ e: SIMD3<Float>, _ smooth: SIMD3<Float>) -> Float {
        let perEdge = pointwiseMin(pointwiseMax(e + 0.5, .zero), SIMD3<Float>(repeating: 1))
        let masked = perEdge * smooth + (SIMD3<Float>(repeating: 1) - smooth)
        return masked.min()
    }
}
