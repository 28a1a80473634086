import Imaging

extension Rasterizer {
    /// `rasterize` with a `DepthOnlyShader` (the head occluder), eight pixels of a row at a time: the
    /// same coverage rule (pixel centres inside, no fringe) and nearest-1/z test, with the edge
    /// functions and 1/z evaluated at each pixel rather than stepped along the row (so a centre
    /// within float rounding of an edge may fall the other way).
    public static func rasterizeDepth(_ triangles: [ScreenTriangle], depth: inout DepthBuffer, scissor: PixelRect? = nil) {
        let width = depth.width, height = depth.height
        guard width > 0 && height > 0 else { return }
        let clip = (scissor ?? PixelRect(x: 0, y: 0, width: width, height: height))
            .overlap(PixelRect(x: 0, y: 0, width: width, height: height))
        guard let clip else { return }
        var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
        depth.values.withUnsafeMutableBufferPointer { z in
            triangles.withUnsafeBufferPointer { tris in
                for t in tris {
                    guard let r = drawDepth8(t, width: width, clip: clip, z: z) else { continue }
                    box.minX = min(box.minX, r.x); box.minY = min(box.minY, r.y)
                    box.maxX = max(box.maxX, r.lastX); box.maxY = max(box.maxY, r.lastY)
                }
            }
        }
        if box.maxX >= 0 { depth.markDirty(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) }
    }

    @inline(__always)
    static func drawDepth8(_ t: ScreenTriangle, width: Int, clip: PixelRect, z: UnsafeMutableBufferPointer<Float>) -> PixelRect? {
        guard let e = TriangleEdges(t, clip: clip, smoothEdges: 0) else { return nil }
        let a0 = e.a0, a1 = e.a1, a2 = e.a2, b0 = e.b0, b1 = e.b1, b2 = e.b2, c0 = e.c0, c1 = e.c1, c2 = e.c2
        let plane = InverseDepthPlane(e, t)
        let ox = plane.ox, oy = plane.oy, wA = plane.wA, wB = plane.wB, wO = plane.wO
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let zero = SIMD8<Float>(repeating: 0)
        let zp = z.baseAddress!, count = z.count
        var touched = false
        for py in e.minY...e.maxY {
            let fy = Float(py)
            guard let (xStart, xEnd) = e.span(y: fy) else { continue }
            let base0 = b0 * fy + c0, base1 = b1 * fy + c1, base2 = b2 * fy + c2
            let wRow = wO + wB * (fy - oy)
            let row = py * width
            var px = xStart
            while px <= xEnd {
                let start = row + px
                let xs = Float(px) + lanes
                let d0 = a0 * xs + base0, d1 = a1 * xs + base1, d2 = a2 * xs + base2
                let w = wRow + wA * (xs - ox)
                let valid = xs .<= Float(xEnd)
                if start + 8 <= count {
                    let p = UnsafeMutableRawPointer(zp + start)
                    let old = p.loadUnaligned(as: SIMD8<Float>.self)
                    let m = valid .& (d0 .>= zero) .& (d1 .>= zero) .& (d2 .>= zero) .& (w .> old)
                    if any(m) {
                        p.storeBytes(of: old.replacing(with: w, where: m), as: SIMD8<Float>.self)
                        touched = true
                    }
                } else {
                    // The buffer's last pixels: no room for a full vector.
                    for i in 0..<min(8, xEnd - px + 1) where d0[i] >= 0 && d1[i] >= 0 && d2[i] >= 0 && w[i] > zp[start + i] {
                        zp[start + i] = w[i]
                        touched = true
                    }
                }
                px += 8
            }
        }
        return touched ? PixelRect(firstX: e.minX, firstY: e.minY, lastX: e.maxX, lastY: e.maxY) : nil
    }
}
