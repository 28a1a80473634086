import Imaging

/// Coarse eye-centre localisation by image gradients: Timm & Barth, "Accurate eye centre localisation
/// by means of gradients", VISAPP 2011.
///
/// The eye is resampled into a small patch aligned with its corner axis (`patchWidth` × `patchHeight`
/// patch pixels spanning 1.5 × 0.9 eye widths), so the cost does not depend on the face size. The
/// centre maximises `w(c) · Σ_i max(0, d̂_i(c) · ĝ_i)²` over candidate pixels c inside the eye contour,
/// where ĝ_i are the unit gradients stronger than mean + 0.3 SD (the paper's threshold), d̂_i the unit
/// displacement from c to gradient i, and w(c) the darkness of the smoothed patch at c (the paper's
/// prior: the pupil is dark). Returns image pixels (pixel-centre convention), sub-patch-pixel by a
/// parabola through the objective. Not thread-safe: it keeps its scratch buffers.
public final class GradientEyeCentre {
    public let patchWidth = 40
    public let patchHeight = 24
    private var patch: [Float]
    private var smooth: [Float]
    private var gradients: [SIMD4<Float>] = []  // x, y, gx, gy (unit)
    private var objective: [Float]

    public init() {
        patch = [Float](repeating: 0, count: 40 * 24)
        smooth = patch
        objective = patch
        gradients.reserveCapacity(40 * 24)
    }

    /// Image position of patch pixel (u, v) for an eye centred at `m` with axes `ex`, `ey` and `k`
    /// image pixels per patch pixel.
    @inline(__always) private func imagePoint(_ u: Float, _ v: Float, m: SIMD2<Float>, ex: SIMD2<Float>, ey: SIMD2<Float>, k: Float) -> SIMD2<Float> {
        let du = (u - Float(patchWidth - 1) / 2) * k, dv = (v - Float(patchHeight - 1) / 2) * k
        return m + ex * du + ey * dv
    }

    /// The gradient eye centre of `eye` in `image`, or nil when the eye is degenerate or off the image.
    public func locate(in image: GrayImage, eye: EyeContour) -> SIMD2<Float>? {
        let w = eye.width
        guard w >= 4, w.isFinite else { return nil }
        let ex = eye.axis, ey = SIMD2<Float>(-ex.y, ex.x)
        let m = eye.cornerMidpoint
        let k = 1.5 * w / Float(patchWidth)
        let pw = patchWidth, ph = patchHeight
        // Resample (bilinear; a patch pixel averages ~k² image pixels only when k ≤ 1, which is fine
        // for a coarse centre).
        image.pixels.withUnsafeBufferPointer { px in
            let iw = image.width, ih = image.height
            patch.withUnsafeMutableBufferPointer { dst in
                for v in 0..<ph {
                    for u in 0..<pw {
                        let p = imagePoint(Float(u), Float(v), m: m, ex: ex, ey: ey, k: k)
                        dst[v * pw + u] = bilinear(px, iw, ih, p.x, p.y)
                    }
                }
            }
        }
        // Gradients (central differences) and their dynamic threshold.
        gradients.removeAll(keepingCapacity: true)
        var sum: Float = 0, sum2: Float = 0, n: Float = 0
        var mags = [Float](repeating: 0, count: pw * ph)
        for v in 1..<(ph - 1) {
            for u in 1..<(pw - 1) {
                let gx = (patch[v * pw + u + 1] - patch[v * pw + u - 1]) / 2
                let gy = (patch[(v + 1) * pw + u] - patch[(v - 1) * pw + u]) / 2
                let g = (gx * gx + gy * gy).squareRoot()
                mags[v * pw + u] = g
                sum += g; sum2 += g * g; n += 1
            }
        }
        let mean = sum / n, sd = max(sum2 / n - mean * mean, 0).squareRoot()
        let threshold = mean + 0.3 * sd
        for v in 1..<(ph - 1) {
            for u in 1..<(pw - 1) {
                let g = mags[v * pw + u]
                guard g > threshold, g > 0 else { continue }
                let gx = (patch[v * pw + u + 1] - patch[v * pw + u - 1]) / 2
                let gy = (patch[(v + 1) * pw + u] - patch[(v - 1) * pw + u]) / 2
                gradients.append(SIMD4(Float(u), Float(v), gx / g, gy / g))
            }
        }
        guard gradients.count >= 8 else { return nil }
        // Darkness prior from a 3x3 box-smoothed patch.
        for v in 0..<ph {
            for u in 0..<pw {
                var s: Float = 0, c: Float = 0
                for dv in -1...1 { for du in -1...1 {
                    let uu = u + du, vv = v + dv
                    if uu >= 0 && uu < pw && vv >= 0 && vv < ph { s += patch[vv * pw + uu]; c += 1 }
                } }
                smooth[v * pw + u] = 255 - s / c
            }
        }
        // Candidates: patch pixels inside the eye contour.
        var best: Float = -1, bu = -1, bv = -1
        for i in objective.indices { objective[i] = 0 }
        gradients.withUnsafeBufferPointer { gs in
            for v in 1..<(ph - 1) {
                for u in 1..<(pw - 1) {
                    let p = imagePoint(Float(u), Float(v), m: m, ex: ex, ey: ey, k: k)
                    guard eye.contains(p) else { continue }
                    let cu = Float(u), cv = Float(v)
                    var acc: Float = 0
                    for g in gs {
                        let dx = g.x - cu, dy = g.y - cv
                        let d2 = dx * dx + dy * dy
                        if d2 == 0 { continue }
                        let dot = dx * g.z + dy * g.w
                        if dot > 0 { acc += dot * dot / d2 }
                    }
                    let o = acc * smooth[v * pw + u]
                    objective[v * pw + u] = o
                    if o > best { best = o; bu = u; bv = v }
                }
            }
        }
        guard bu >= 0 else { return nil }
        // Sub-pixel: a parabola through the objective along each patch axis (only where both
        // neighbours were candidates).
        func offset(_ a: Float, _ b: Float, _ c: Float) -> Float {
            let den = a - 2 * b + c
            guard a > 0, c > 0, den < 0 else { return 0 }
            return max(-0.5, min(0.5, 0.5 * (a - c) / den))
        }
        let ou = offset(objective[bv * pw + bu - 1], best, objective[bv * pw + bu + 1])
        let ov = offset(objective[(bv - 1) * pw + bu], best, objective[(bv + 1) * pw + bu])
        return imagePoint(Float(bu) + ou, Float(bv) + ov, m: m, ex: ex, ey: ey, k: k)
    }
}

/// Bilinear sample with edge clamping (pixel-centre convention).
@inline(__always) func bilinear(_ px: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> Float {
    let cx = min(max(x, 0), Float(w - 1)), cy = min(max(y, 0), Float(h - 1))
    let x0 = Int(cx), y0 = Int(cy)
    let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
    let fx = cx - Float(x0), fy = cy - Float(y0)
    let a = Float(px[y0 * w + x0]), b = Float(px[y0 * w + x1])
    let c = Float(px[y1 * w + x0]), d = Float(px[y1 * w + x1])
    let top = a + (b - a) * fx, bottom = c + (d - c) * fx
    return top + (bottom - top) * fy
}
