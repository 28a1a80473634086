import Meshes

/// The lens shape of a style, as a closed counter-clockwise polygon in millimetres around the
/// lens-box centre: x towards the temple, y up. Each style is a superellipse
/// |x/a|^n + |y/b|^n = 1 with the box sides a = A/2, b = B/2, reshaped: aviators droop at the
/// nasal bottom (the teardrop), cat-eyes sweep up at the temporal top. Points are resampled
/// half by arc length, half by turning angle: corners get the points that straight sides do not
/// need (48 points keep every chord within 0.1 mm of the outline; 72 at equal arc length left
/// 0.08 mm at the rectangle's corners and cost half as many rim triangles again).
enum LensOutline {
    static func points(style: GlassesStyle, lensWidth: Float, count: Int = 48) -> [SIMD2<Float>] {
        let a = lensWidth / 2, b = lensWidth * style.heightRatio / 2
        let exponent: Float
        switch style {
        case .round: exponent = 2
        case .rectangular: exponent = 4.5
        case .aviator: exponent = 2.4
        case .catEye: exponent = 2.6
        }
        let dense = 720
        var raw: [SIMD2<Float>] = (0..<dense).map { k in
            let t = 2 * Float.pi * Float(k) / Float(dense)
            let c = cosf(t), s = sinf(t)
            var x = a * copysign(powf(abs(c), 2 / exponent), c)
            var y = b * copysign(powf(abs(s), 2 / exponent), s)
            switch style {
            case .aviator:
                // Teardrop: the lower half swells towards the temple and drops, the nasal bottom tucks in.
                if y < 0 {
                    let depth = -y / b
                    x += 0.3 * a * depth * depth * (1 - x / a) * 0.5
                    y *= 1 + 0.3 * max(0, x / a)
                    if x < 0 { y *= 1 - 0.35 * (-x / a) }
                }
            case .catEye:
                // Upswept temporal top corner, tapering down towards the nose.
                if x > 0 && y > 0 {
                    let wing = (x / a) * (y / b)
                    y += 0.9 * b * powf(wing, 1.5)
                    x += 0.25 * a * wing
                }
                if x < 0 && y > 0 { y *= 1 - 0.15 * (-x / a) }
                if y < 0 { y *= 1 - 0.25 * max(0, x / a) }
            default:
                break
            }
            return SIMD2<Float>(x, y)
        }
        // Re-centre on the box centre after reshaping, so A and B stay the box sides.
        var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
        for p in raw { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let centre = (lo + hi) / 2, scale = SIMD2<Float>(2 * a, 2 * b) / (hi - lo)
        raw = raw.map { ($0 - centre) * scale }
        return resample(raw, count: count)
    }

    /// `count` points along a closed polygon at equal steps of arc length (as a fraction of the
    /// perimeter) plus turning (as a fraction of a full turn), each weighing half.
    static func resample(_ poly: [SIMD2<Float>], count: Int) -> [SIMD2<Float>] {
        let n = poly.count
        var lengths: [Float] = [], turns: [Float] = []
        for i in 0..<n {
            let d = poly[(i + 1) % n] - poly[i], before = poly[i] - poly[(i + n - 1) % n]
            lengths.append((d * d).sum().squareRoot())
            let cross = before.x * d.y - before.y * d.x, dot = (before * d).sum()
            turns.append(abs(atan2f(cross, dot)))
        }
        let perimeter = lengths.reduce(0, +), turning = max(turns.reduce(0, +), 1e-6)
        var cumulative: [Float] = [0]
        for i in 0..<n { cumulative.append(cumulative.last! + 0.5 * lengths[i] / perimeter + 0.5 * turns[i] / turning) }
        let total = cumulative.last!
        var out: [SIMD2<Float>] = []
        var j = 0
        for k in 0..<count {
            let s = total * Float(k) / Float(count)
            while j + 1 < cumulative.count - 1 && cumulative[j + 1] < s { j += 1 }
            let seg = cumulative[j + 1] - cumulative[j]
            let t = seg > 0 ? (s - cumulative[j]) / seg : 0
            out.append(poly[j] + (poly[(j + 1) % n] - poly[j]) * t)
        }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
