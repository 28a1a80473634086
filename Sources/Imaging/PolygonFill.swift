/// Which points a self-intersecting or nested polygon covers.
public enum FillRule: Sendable, Hashable {
    /// Inside where a ray crosses the outline an odd number of times (holes from nested loops).
    case evenOdd
    /// Inside where the outline winds around the point a non-zero number of times.
    case nonZero
}

extension RGBImage {
    /// Fills the polygon with vertices `vertices` (pixel-centre coordinates, implicitly closed)
    /// by scanline rasterisation, clipped to the image.
    ///
    /// Anti-aliased (default): each pixel row is cut by 4 sub-scanlines and each span's exact
    /// horizontal overlap with a pixel is accumulated, so coverage approximates the pixel's area
    /// inside the polygon (pixel (x, y) is the unit square centred on (x, y)). Without
    /// anti-aliasing a pixel is filled when its centre is inside (top-left rule: a span
    /// [xa, xb) takes centres xa <= x < xb). `opacity` scales the coverage.
    public mutating func fillPolygon(_ vertices: [SIMD2<Float>], color: RGBColor, rule: FillRule = .nonZero,
                                     opacity: Float = 1, antialiased: Bool = true) {
        guard vertices.count >= 3, opacity > 0, width > 0, height > 0 else { return }
        for v in vertices where !(v.x.isFinite && v.y.isFinite) { return }
        var minY = Float.infinity, maxY = -Float.infinity
        for v in vertices { minY = min(minY, v.y); maxY = max(maxY, v.y) }
        let w = width, h = height
        let y0 = clampToInt((minY - 0.5).rounded(.down), 0, h)
        let y1 = clampToInt((maxY + 0.5).rounded(.up), -1, h - 1)
        if y0 > y1 { return }

        // Edges as (x at top, dx/dy, top y, bottom y, winding), horizontal edges dropped.
        struct Edge { var x0: Float; var slope: Float; var yTop: Float; var yBottom: Float; var winding: Int }
        var edges: [Edge] = []
        edges.reserveCapacity(vertices.count)
        for i in 0 ..< vertices.count {
            let p = vertices[i], q = vertices[(i + 1) % vertices.count]
            if p.y == q.y { continue }
            let (top, bottom, wind) = p.y < q.y ? (p, q, 1) : (q, p, -1)
            edges.append(Edge(x0: top.x, slope: (bottom.x - top.x) / (bottom.y - top.y), yTop: top.y,
                              yBottom: bottom.y, winding: wind))
        }

        let subRows = antialiased ? 4 : 1
        let subWeight = 1 / Float(subRows)
        var coverage = [Float](repeating: 0, count: w)
        var crossings: [(x: Float, winding: Int)] = []
        crossings.reserveCapacity(edges.count)

        withPixelBase { base in
            coverage.withUnsafeMutableBufferPointer { cov in
                for y in y0 ... y1 {
                    var touchedLo = w, touchedHi = -1
                    for k in 0 ..< subRows {
                        let sy = antialiased ? Float(y) + (Float(k) + 0.5) * subWeight - 0.5 : Float(y)
                        crossings.removeAll(keepingCapacity: true)
                        for e in edges where sy >= e.yTop && sy < e.yBottom {
                            crossings.append((e.x0 + (sy - e.yTop) * e.slope, e.winding))
                        }
                        if crossings.count < 2 { continue }
                        crossings.sort { $0.x < $1.x }
                        var wind = 0
                        for j in 0 ..< crossings.count - 1 {
                            wind += rule == .evenOdd ? 1 : crossings[j].winding
                            let inside = rule == .evenOdd ? (wind & 1) == 1 : wind != 0
                            if !inside { continue }
                            let xa = crossings[j].x, xb = crossings[j + 1].x
                            if antialiased {
                                accumulate(cov, from: xa, to: xb, weight: subWeight, lo: &touchedLo, hi: &touchedHi)
                            } else {
                                let x0 = clampToInt(xa.rounded(.up), 0, w)
                                let x1 = clampToInt(xb.rounded(.up), 0, w) - 1
                                if x0 > x1 { continue }
                                for x in x0 ... x1 { cov[x] = 1 }
                                touchedLo = min(touchedLo, x0); touchedHi = max(touchedHi, x1)
                            }
                        }
                    }
                    if touchedLo > touchedHi { continue }
                    let row = base + 3 * y * w
                    for x in touchedLo ... touchedHi {
                        let c = cov[x]
                        if c > 0 {
                            RGBImage.blendRun(row + 3 * x, count: 1, color: color, weight: RGBImage.weight(c * opacity))
                            cov[x] = 0
                        }
                    }
                }
            }
        }
    }
}

/// Adds `weight` times the overlap of [xa, xb] with each pixel's extent [x - 0.5, x + 0.5].
private func accumulate(_ cov: UnsafeMutableBufferPointer<Float>, from xa0: Float, to xb0: Float, weight: Float,
                        lo: inout Int, hi: inout Int) {
    let w = cov.count
    let xa = max(xa0, -0.5), xb = min(xb0, Float(w) - 0.5)
    if !(xb > xa) { return }
    let ia = min(w - 1, Int((xa + 0.5).rounded(.down)))
    let ib = min(w - 1, Int((xb + 0.5).rounded(.down)))
    lo = min(lo, ia); hi = max(hi, ib)
    if ia == ib { cov[ia] += (xb - xa) * weight; return }
    cov[ia] += (Float(ia) + 0.5 - xa) * weight
    if ia + 1 < ib { for x in ia + 1 ..< ib { cov[x] += weight } }
    cov[ib] += (xb - (Float(ib) - 0.5)) * weight
}
