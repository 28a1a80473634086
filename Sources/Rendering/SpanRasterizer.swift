import Imaging

extension Rasterizer {
    /// Triangles at least this many pixels wide are drawn eight neighbouring pixels at a time
    /// (`drawSpans`) instead of through the fragment queue: their rows are long enough to fill the
    /// lanes, and neighbours need no queueing, no pixel indices and contiguous loads only. The
    /// lenses' hub and rings are such triangles; rims are a few pixels across and stay queued.
    static let spanMinimumWidth = 24

    /// Whether `rasterizeQueued` draws `t` with `drawSpans`: wide, without anti-aliased edges (whose
    /// fringe pixels are partly covered and interpolated differently), for a shader that never
    /// discards (depth is written as soon as a pixel passes).
    @inline(__always)
    static func drawsAsSpans(_ t: ScreenTriangle, mayDiscard: Bool) -> Bool {
        guard t.smoothEdges == 0 && !mayDiscard else { return false }
        let lo = min(t.p0.x, t.p1.x, t.p2.x), hi = max(t.p0.x, t.p1.x, t.p2.x)
        return hi - lo >= Float(spanMinimumWidth)
    }

    /// Covers one triangle eight neighbouring pixels at a time: edge functions, 1/z and the depth
    /// test as vectors, the eight fragments shaded together (`BatchShader.shade`) and blended into
    /// the image at once, with the arithmetic of the queued path (`QueueWriter.flushBatch`). The
    /// queue must be empty (fragments of earlier triangles land first); the eight pixels at the very
    /// end of the image, where a vector load would run past the buffers, are queued instead, ahead
    /// of whatever is queued next. Returns the pixel box when any pixel passed the depth test.
    @inline(__always)
    static func drawSpans<S: BatchShader>(_ t: ScreenTriangle, shader: S, width: Int, pixelCount: Int, clip: PixelRect,
                                          queue q: inout QueueWriter) -> PixelRect? {
        guard let e = TriangleEdges(t, clip: clip, smoothEdges: 0) else { return nil }
        let writesDepth = shader.writesDepth
        let a0 = e.a0, a1 = e.a1, a2 = e.a2, b0 = e.b0, b1 = e.b1, b2 = e.b2, c0 = e.c0, c1 = e.c1, c2 = e.c2
        let plane = InverseDepthPlane(e, t)
        let g1 = plane.g1, g2 = plane.g2, ox = plane.ox, oy = plane.oy, wA = plane.wA, wB = plane.wB, wO = plane.wO
        let (v0, v1, v2) = corners(of: t, shader: shader)
        let (o, d1, d2) = q.begin(v0, v1, v2)
        let laneX = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let zero = SIMD8<Float>(repeating: 0)
        let steps = Float(ColorTables.encodeSteps)
        let z = q.z, rgb = q.rgb, toLinear = q.toLinear
        var touched = false
        for py in e.minY...e.maxY {
            let fy = Float(py)
            guard let (xStart, xEnd) = e.span(y: fy) else { continue }
            let r0 = b0 * fy + c0, r1 = b1 * fy + c1, r2 = b2 * fy + c2
            let wRow = wO + wB * (fy - oy)
            let row = py * width
            var x = xStart
            while x <= xEnd {
                let idx = row + x
                let lanes = min(8, xEnd - x + 1)
                let fx = Float(x) + laneX
                let e0 = a0 * fx + r0, e1 = a1 * fx + r1, e2 = a2 * fx + r2
                let w = wRow + wA * (fx - ox)
                x += 8
                guard idx + 8 <= pixelCount else {
                    // The image's last pixels: one at a time through the queue.
                    for lane in 0..<lanes where e0[lane] >= 0 && e1[lane] >= 0 && e2[lane] >= 0 && w[lane] > z[idx + lane] {
                        touched = true
                        if writesDepth { z[idx + lane] = w[lane] }
                        q.push(idx + lane, e1[lane] * g1, e2[lane] * g2, weight: w[lane], coverage: 1, writesDepth: writesDepth)
                        if q.count == FragmentQueue.capacity { q.flush(shader) }
                    }
                    continue
                }
                let depth = UnsafeRawPointer(z + idx).loadUnaligned(as: SIMD8<Float>.self)
                let pass = (e0 .>= zero) .& (e1 .>= zero) .& (e2 .>= zero) .& (w .> depth) .& (laneX .< Float(lanes))
                guard any(pass) else { continue }
                touched = true
                if writesDepth {
                    UnsafeMutableRawPointer(z + idx).storeBytes(of: depth.replacing(with: w, where: pass), as: SIMD8<Float>.self)
                }
                let r = 1 / w
                let f = shader.shade(SurfaceVarying8(corner: o, edge1: d1, edge2: d2, b1: e1 * g1 * r, b2: e2 * g2 * r))
                var outR = f.addR, outG = f.addG, outB = f.addB
                @inline(__always) func nonzero(_ x: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> { (x .< zero) .| (x .> zero) }
                let p = rgb + 3 * idx
                if any(nonzero(f.mulR) .| nonzero(f.mulG) .| nonzero(f.mulB)) {
                    // The eight pixels are neighbours: 24 consecutive bytes.
                    @inline(__always) func d(_ lane: Int, _ channel: Int) -> Float { toLinear[Int(p[3 * lane + channel])] }
                    let dR = SIMD8<Float>(d(0, 0), d(1, 0), d(2, 0), d(3, 0), d(4, 0), d(5, 0), d(6, 0), d(7, 0))
                    let dG = SIMD8<Float>(d(0, 1), d(1, 1), d(2, 1), d(3, 1), d(4, 1), d(5, 1), d(6, 1), d(7, 1))
                    let dB = SIMD8<Float>(d(0, 2), d(1, 2), d(2, 2), d(3, 2), d(4, 2), d(5, 2), d(6, 2), d(7, 2))
                    outR += dR * f.mulR; outG += dG * f.mulG; outB += dB * f.mulB
                }
                let encoded = UnsafeMutableRawPointer(q.encoded)
                encoded.storeBytes(of: Shading8.clamp01(outR) * steps + 0.5, as: SIMD8<Float>.self)
                encoded.storeBytes(of: Shading8.clamp01(outG) * steps + 0.5, toByteOffset: 32, as: SIMD8<Float>.self)
                encoded.storeBytes(of: Shading8.clamp01(outB) * steps + 0.5, toByteOffset: 64, as: SIMD8<Float>.self)
                @inline(__always) func write(_ lane: Int) { q.writeEncoded(lane: lane, to: p + 3 * lane) }
                if all(pass) {
                    for lane in 0..<8 { write(lane) }
                } else {
                    for lane in 0..<lanes where pass[lane] { write(lane) }
                }
            }
        }
        return touched ? PixelRect(firstX: e.minX, firstY: e.minY, lastX: e.maxX, lastY: e.maxY) : nil
    }
}

