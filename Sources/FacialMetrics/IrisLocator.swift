import Foundation
import Imaging

/// Coarse iris circle of one eye: a two-sided circular Hough transform on the eye region.
///
/// The eye is resampled into a `patchWidth` × `patchHeight` patch aligned with its corner axis and
/// centred on the contour centroid, `unitsPerEyeWidth` patch pixels per eye width (so the cost does
/// not depend on the face size; each patch pixel averages a 2 × 2 grid of bilinear taps, which
/// box-filters larger eyes). Sobel gradients that are strong (above mean + ½ SD) and within 50° of the
/// eye axis are the lateral limbus candidates: dark iris inside, bright sclera outside, so a
/// gradient pointing image-left is a left limbus and votes for centres `r` to its right, and vice
/// versa (circular Hough with gradient direction: Kimme, Ballard & Sklansky, CACM 1975). Left and
/// right votes are kept in separate accumulators and a candidate scores √(left · right) / r, so a
/// circle needs a limbus on both sides; eye corners, lids and catchlights vote one-sidedly or
/// incoherently. Radii span 0.15–0.30 eye widths (visible iris 11.7 mm over a ≈ 30 mm palpebral
/// fissure is ≈ 0.2).
///
/// The lid contour is not used as a mask: 68-point lids are a coarse hexagon that cuts the lateral
/// limbus off, and on real video they are often a pixel or two off. Units: image pixels,
/// pixel-centre convention. Not thread-safe (scratch buffers).
public final class IrisLocator {
    public static let patchWidth = 48
    public static let patchHeight = 32
    public let unitsPerEyeWidth: Float = 32
    /// Candidate radii in patch pixels (0.15–0.30 eye widths).
    public let radii: [Float]
    /// Half-widths (patch pixels) of the centre search about the contour centroid.
    public let searchU = 10
    public let searchV = 6
    /// How much darker (grey levels) than the patch mean a candidate's centre box must be.
    public var minimumDarkness: Float = 5
    /// … and at least this many of the patch's intensity SDs darker.
    public var darknessSDs: Float = 0.5
    /// Half-angle of each lateral arc about the eye axis (degrees).
    public let arcHalfDegrees: Float = 35
    private var patch: [Float]
    private var gu: [Float]
    private var gv: [Float]
    private var scores: [Float]
    /// Summed-area table of the patch, (patchWidth + 1) × (patchHeight + 1).
    private var integral: [Float]
    /// Arc samples of every radius: patch index offset and outward unit normal (u, v); radius `i`'s
    /// run is `arcStarts[i]..<arcStarts[i + 1]`, its left arc first, then its right arc.
    private var arcOffsets: [Int] = []
    private var arcNormals: [SIMD2<Float>] = []
    private var arcStarts: [Int] = [0]

    public init() {
        radii = stride(from: Float(0.15), through: 0.3001, by: 0.0125).map { $0 * 32 }
        // Separate buffers (not copies of one), so the first frame does not pay for copy-on-write.
        patch = [Float](repeating: 0, count: 48 * 32)
        gu = [Float](repeating: 0, count: 48 * 32)
        gv = [Float](repeating: 0, count: 48 * 32)
        scores = [Float](repeating: 0, count: (2 * 10 + 1) * (2 * 6 + 1) * radii.count)
        integral = [Float](repeating: 0, count: 49 * 33)
        for r in radii {
            // About one sample per patch pixel of arc on each side.
            let half = arcHalfDegrees * .pi / 180
            let count = max(3, Int((2 * half * r).rounded()) | 1)
            for side in [Float(-1), 1] {
                for j in 0..<count {
                    let t = -half + 2 * half * Float(j) / Float(count - 1)
                    let du = (side * r * cosf(t)).rounded(), dv = (r * sinf(t)).rounded()
                    arcOffsets.append(Int(du + dv * Float(Self.patchWidth)))
                    arcNormals.append(SIMD2(side * cosf(t), sinf(t)))
                }
            }
            arcStarts.append(arcOffsets.count)
        }
    }

    /// The best two-sided circle, in image pixels, with its score (geometric mean of the two arcs'
    /// mean outward gradient, grey levels per patch pixel), or nil for a degenerate eye or no
    /// two-sided support.
    public func locate(in image: GrayImage, eye: EyeContour) -> (circle: Circle, score: Float)? {
        let w = eye.width
        guard w >= 6, w.isFinite else { return nil }
        let pw = Self.patchWidth, ph = Self.patchHeight, nr = radii.count
        let ex = eye.axis, ey = SIMD2<Float>(-ex.y, ex.x)
        let m = eye.centroid
        let k = w / unitsPerEyeWidth
        let ou = Float(pw - 1) / 2, ov = Float(ph - 1) / 2
        // Resample: 2 × 2 bilinear taps per patch pixel at ±k/4.
        image.pixels.withUnsafeBufferPointer { px in
            let iw = image.width, ih = image.height
            let a = ex * (k / 4), b = ey * (k / 4)
            patch.withUnsafeMutableBufferPointer { dst in
                for v in 0..<ph {
                    for u in 0..<pw {
                        let p = m + ex * ((Float(u) - ou) * k) + ey * ((Float(v) - ov) * k)
                        let s = bilinear(px, iw, ih, p.x - a.x - b.x, p.y - a.y - b.y) + bilinear(px, iw, ih, p.x + a.x - b.x, p.y + a.y - b.y)
                            + bilinear(px, iw, ih, p.x - a.x + b.x, p.y - a.y + b.y) + bilinear(px, iw, ih, p.x + a.x + b.x, p.y + a.y + b.y)
                        dst[v * pw + u] = s * 0.25
                    }
                }
            }
        }
        // Sobel gradients and a cap on single contributions.
        var sum: Float = 0, sum2: Float = 0, n: Float = 0
        patch.withUnsafeBufferPointer { p in
            gu.withUnsafeMutableBufferPointer { gx in
                gv.withUnsafeMutableBufferPointer { gy in
                    for v in 1..<(ph - 1) {
                        for u in 1..<(pw - 1) {
                            let i = v * pw + u
                            let a = ((p[i - pw + 1] + 2 * p[i + 1] + p[i + pw + 1]) - (p[i - pw - 1] + 2 * p[i - 1] + p[i + pw - 1])) * 0.125
                            let b = ((p[i + pw - 1] + 2 * p[i + pw] + p[i + pw + 1]) - (p[i - pw - 1] + 2 * p[i - pw] + p[i - pw + 1])) * 0.125
                            gx[i] = a; gy[i] = b
                            let g2 = a * a + b * b
                            sum += g2.squareRoot(); sum2 += g2; n += 1
                        }
                    }
                }
            }
        }
        let mean = sum / n, sd = max(sum2 / n - mean * mean, 0).squareRoot()
        let cap = max(mean + 2 * sd, 1)
        // The iris is dark: a candidate's central box (half-side ½ r) must be clearly darker than the
        // patch on average (by `minimumDarkness` grey levels and `darknessSDs` SDs). This rejects circles around bright lid skin that dark lid creases outline.
        let iw1 = pw + 1
        var patchSum: Float = 0, patchSum2: Float = 0
        patch.withUnsafeBufferPointer { p in
            for x in p { patchSum2 += x * x }
            integral.withUnsafeMutableBufferPointer { s in
                for v in 0..<ph {
                    var row: Float = 0
                    for u in 0..<pw {
                        row += p[v * pw + u]
                        s[(v + 1) * iw1 + u + 1] = s[v * iw1 + u + 1] + row
                    }
                }
                patchSum = s[ph * iw1 + pw]
            }
        }
        let patchMean = patchSum / Float(pw * ph)
        let patchSD = max(patchSum2 / Float(pw * ph) - patchMean * patchMean, 0).squareRoot()
        let darkLimit = patchMean - max(minimumDarkness, darknessSDs * patchSD)
        // Every candidate circle: mean outward gradient on each lateral arc.
        let cu0 = pw / 2, cv0 = ph / 2
        var best: Float = 0, bu = -1, bv = -1, br = -1
        let uRange = (cu0 - searchU)...(cu0 + searchU), vRange = (cv0 - searchV)...(cv0 + searchV)
        let rowLength = uRange.count
        for i in scores.indices { scores[i] = 0 }
        let nv = vRange.count
        // Score one candidate (and remember it); 0 when its centre is not dark enough.
        func evaluate(_ u: Int, _ v: Int, _ ri: Int, _ sc: UnsafeMutableBufferPointer<Float>, _ gx: UnsafeBufferPointer<Float>,
                      _ gy: UnsafeBufferPointer<Float>, _ offsets: UnsafeBufferPointer<Int>, _ normals: UnsafeBufferPointer<SIMD2<Float>>,
                      _ sat: UnsafeBufferPointer<Float>) {
            let h = max(1, Int(radii[ri] * 0.5))
            let inside = (sat[(v + h + 1) * iw1 + u + h + 1] - sat[(v - h) * iw1 + u + h + 1]
                          - sat[(v + h + 1) * iw1 + u - h] + sat[(v - h) * iw1 + u - h]) / Float((2 * h + 1) * (2 * h + 1))
            guard inside <= darkLimit else { return }
            let start = arcStarts[ri], mid = (arcStarts[ri] + arcStarts[ri + 1]) / 2, end = arcStarts[ri + 1]
            let c = v * pw + u
            var l: Float = 0, r: Float = 0
            for j in start..<mid {
                let i = c + offsets[j], n = normals[j]
                l += max(-cap, min(cap, gx[i] * n.x + gy[i] * n.y))
            }
            for j in mid..<end {
                let i = c + offsets[j], n = normals[j]
                r += max(-cap, min(cap, gx[i] * n.x + gy[i] * n.y))
            }
            // Mean outward gradient per side times the radius: an arc's total edge strength, so the
            // outermost circular edge (the limbus) beats a smaller circle through the pupil's or a
            // catchlight's edge.
            let s = l > 0 && r > 0 ? (l * r).squareRoot() * radii[ri] / Float(mid - start) : 0
            sc[(ri * nv + (v - vRange.lowerBound)) * rowLength + (u - uRange.lowerBound)] = s
            if s > best { best = s; bu = u; bv = v; br = ri }
        }
        scores.withUnsafeMutableBufferPointer { sc in
            gu.withUnsafeBufferPointer { gx in
                gv.withUnsafeBufferPointer { gy in
                    arcOffsets.withUnsafeBufferPointer { offsets in
                        arcNormals.withUnsafeBufferPointer { normals in
                            integral.withUnsafeBufferPointer { sat in
                                // Every other radius everywhere, then the skipped radii next to the winner.
                                for ri in stride(from: 0, to: nr, by: 2) {
                                    for v in vRange { for u in uRange { evaluate(u, v, ri, sc, gx, gy, offsets, normals, sat) } }
                                }
                                guard br >= 0 else { return }
                                let (u0, v0, r0) = (bu, bv, br)
                                for ri in stride(from: r0 - 1, through: r0 + 1, by: 2) where ri >= 0 && ri < nr {
                                    for v in max(v0 - 1, vRange.lowerBound)...min(v0 + 1, vRange.upperBound) {
                                        for u in max(u0 - 1, uRange.lowerBound)...min(u0 + 1, uRange.upperBound) {
                                            evaluate(u, v, ri, sc, gx, gy, offsets, normals, sat)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard br >= 0 else { return nil }
        func score(_ u: Int, _ v: Int, _ ri: Int) -> Float {
            guard ri >= 0, ri < nr, uRange.contains(u), vRange.contains(v) else { return 0 }
            return scores[(ri * vRange.count + (v - vRange.lowerBound)) * rowLength + (u - uRange.lowerBound)]
        }
        func offset(_ a: Float, _ b: Float, _ c: Float) -> Float {
            let den = a - 2 * b + c
            guard den < 0 else { return 0 }
            return max(-0.5, min(0.5, 0.5 * (a - c) / den))
        }
        let su = Float(bu) + offset(score(bu - 1, bv, br), best, score(bu + 1, bv, br))
        let sv = Float(bv) + offset(score(bu, bv - 1, br), best, score(bu, bv + 1, br))
        let step = radii.count > 1 ? radii[1] - radii[0] : 0
        let sr = radii[br] + step * offset(score(bu, bv, br - 1), best, score(bu, bv, br + 1))
        let c = m + ex * ((su - ou) * k) + ey * ((sv - ov) * k)
        return (Circle(centre: SIMD2(Double(c.x), Double(c.y)), radius: Double(sr * k)), best)
    }
}
