extension RGBImage {
    /// Draws the segment from `a` to `b` (pixel-centre coordinates) as a capsule of the given
    /// `thickness` (pixels, round caps), clipped to the image.
    ///
    /// Anti-aliased by coverage: a pixel whose centre is at distance d from the segment gets
    /// coverage clamp(thickness / 2 + 0.5 - d, 0, 1), so a 1-pixel horizontal line is exactly one
    /// row of full colour, and each endpoint pixel is drawn at full colour. With
    /// `antialiased: false` pixels with d <= thickness / 2 are set and others untouched (an
    /// 8-connected line for thickness 1). `opacity` scales the coverage. Endpoints may lie far
    /// outside the image; only the visible rows are visited.
    public mutating func drawLine(from a: SIMD2<Float>, to b: SIMD2<Float>, color: RGBColor,
                                  thickness: Float = 1, opacity: Float = 1, antialiased: Bool = true) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, thickness > 0, opacity > 0 else { return }
        let r = thickness / 2
        let reach = antialiased ? r + 0.5 : r
        // Clip the segment to the image grown by the stroke's reach, so far-off endpoints cost
        // nothing and do not cost Float precision; a cap cut off this way lies off-image anyway.
        let margin = reach + 1
        guard let (a, b) = clipSegment(a, b, minX: -margin, minY: -margin, maxX: Float(width - 1) + margin,
                                       maxY: Float(height - 1) + margin) else { return }
        let d = b - a
        let length = (d * d).sum().squareRoot()
        let u = length > 0 ? d / length : SIMD2<Float>(1, 0)
        let w = width, h = height
        let y0 = clampToInt((min(a.y, b.y) - reach).rounded(.up), 0, h)
        let y1 = clampToInt((max(a.y, b.y) + reach).rounded(.down), -1, h - 1)
        if y0 > y1 || w == 0 { return }
        let reach2 = reach * reach
        withPixelBase { base in
            for y in y0 ... y1 {
                let yy = Float(y) - a.y
                // The capsule meets this row in one interval: the union of its pieces (the band
                // along the segment and the two end discs), each an interval in x.
                var lo = Float.infinity, hi = -Float.infinity
                func unite(_ l: Float, _ r: Float) { if l <= r { lo = min(lo, l); hi = max(hi, r) } }
                func disc(_ cx: Float, _ cy: Float) {
                    let s = reach2 - cy * cy
                    if s >= 0 { let q = s.squareRoot(); unite(cx - q, cx + q) }
                }
                disc(0, yy)
                disc(d.x, yy - d.y)
                if length > 0 {
                    // Band: 0 <= X ux + yy uy <= L and |X uy - yy ux| <= reach, with X = x - a.x.
                    var bl = -Float.infinity, bh = Float.infinity, empty = false
                    func constrain(_ k: Float, _ c: Float, _ l: Float, _ r: Float) {
                        // l <= X k + c <= r
                        if abs(k) < 1e-12 { if c < l || c > r { empty = true }; return }
                        var p = (l - c) / k, q = (r - c) / k
                        if p > q { swap(&p, &q) }
                        bl = max(bl, p); bh = min(bh, q)
                    }
                    constrain(u.x, yy * u.y, 0, length)
                    constrain(u.y, -yy * u.x, -reach, reach)
                    if !empty { unite(bl, bh) }
                }
                if !(lo <= hi) { continue }
                let x0 = clampToInt((lo + a.x).rounded(.up), 0, w)
                let x1 = clampToInt((hi + a.x).rounded(.down), -1, w - 1)
                if x0 > x1 { continue }
                let row = base + 3 * y * w
                for x in x0 ... x1 {
                    let px = Float(x) - a.x
                    var t = px * u.x + yy * u.y
                    t = t < 0 ? 0 : (t > length ? length : t)
                    let ex = px - t * u.x, ey = yy - t * u.y
                    let dist = (ex * ex + ey * ey).squareRoot()
                    let coverage: Float = antialiased ? min(1, r + 0.5 - dist) : (dist <= r ? 1 : 0)
                    RGBImage.blendRun(row + 3 * x, count: 1, color: color, weight: RGBImage.weight(coverage * opacity))
                }
            }
        }
    }

    /// Draws consecutive segments through `points` (and back to the first if `closed`).
    /// Joints are drawn twice, which shows only when `opacity` < 1.
    public mutating func drawPolyline(_ points: [SIMD2<Float>], closed: Bool = false, color: RGBColor,
                                      thickness: Float = 1, opacity: Float = 1, antialiased: Bool = true) {
        guard points.count >= 2 else {
            if let p = points.first {
                drawLine(from: p, to: p, color: color, thickness: thickness, opacity: opacity, antialiased: antialiased)
            }
            return
        }
        for i in 0 ..< points.count - 1 {
            drawLine(from: points[i], to: points[i + 1], color: color, thickness: thickness, opacity: opacity,
                     antialiased: antialiased)
        }
        if closed && points.count > 2 {
            drawLine(from: points[points.count - 1], to: points[0], color: color, thickness: thickness,
                     opacity: opacity, antialiased: antialiased)
        }
    }
}

/// Liang–Barsky clipping of the segment p0–p1 to a rectangle; nil when nothing is inside.
/// A degenerate segment (a point) is kept when the point is inside.
func clipSegment(_ p0: SIMD2<Float>, _ p1: SIMD2<Float>, minX: Float, minY: Float, maxX: Float,
                 maxY: Float) -> (SIMD2<Float>, SIMD2<Float>)? {
    let d = p1 - p0
    var t0: Float = 0, t1: Float = 1
    func clip(_ p: Float, _ q: Float) -> Bool {
        // Inside when p * t <= q.
        if p == 0 { return q >= 0 }
        let t = q / p
        if p < 0 { if t > t1 { return false }; if t > t0 { t0 = t } } else { if t < t0 { return false }; if t < t1 { t1 = t } }
        return true
    }
    guard clip(-d.x, p0.x - minX), clip(d.x, maxX - p0.x), clip(-d.y, p0.y - minY), clip(d.y, maxY - p0.y) else {
        return nil
    }
    return (t0 > 0 ? p0 + t0 * d : p0, t1 < 1 ? p0 + t1 * d : p1)
}
