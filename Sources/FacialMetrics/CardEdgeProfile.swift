import Imaging

/// The card's pixels across one of its sides: samples along the side's normal, and where the edge
/// lies in them (`CardDetector.refineSide`).
extension CardPixels {
    /// Samples along a line, each as three channels (luma repeated), for the sub-pixel side fit.
    func profile(from c: SIMD2<Double>, along n: SIMD2<Double>, offsets: StrideThrough<Double>, into out: inout [SIMD3<Float>]) {
        out.removeAll(keepingCapacity: true)
        switch self {
        case .luma(let image):
            image.pixels.withUnsafeBufferPointer { px in
                for o in offsets {
                    let q = c + n * o
                    out.append(SIMD3(repeating: bilinear(px, image.width, image.height, Float(q.x), Float(q.y))))
                }
            }
        case .colour(let image):
            image.pixels.withUnsafeBufferPointer { px in
                for o in offsets {
                    let q = c + n * o
                    out.append(bilinearRGB(px, image.width, image.height, Float(q.x), Float(q.y)))
                }
            }
        }
    }

    /// The step between two profile samples in luma units: |Δ| for luma, the colour distance / √3
    /// for colour (a grey step has its luma size), as `CardEdgeMap` scales its gradients.
    @inline(__always) static func step(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = b - a
        return ((d * d).sum() / 3).squareRoot()
    }

    /// Where a blurred step crosses halfway between its two ends, in profile steps (0 = first
    /// sample, fractional): each sample is projected on the line in colour space from the first sample
    /// to the last, and the 0.5 crossing nearest the profile's steepest step is taken. Nil when the
    /// ends differ by less than 4 luma levels or no crossing exists.
    ///
    /// Why not the steepest step itself (the first pass): with the card moving, its edge is a ramp
    /// 2–3 px wide, and hair darkening away from the card, or skin shading, tilts the ramp's ends, so
    /// the gradient's maximum slides towards the background by 1–3 px (d3 frames 29–33 and 282–286,
    /// sides beside the hairline). The halfway point of a symmetric blur is the edge whatever its width.
    static func halfwayCrossing(_ prof: [SIMD3<Float>]) -> Double? {
        guard let first = prof.first, let last = prof.last else { return nil }
        let dv = last - first
        let dd = (dv * dv).sum()
        guard dd / 3 >= 16 else { return nil }
        var steepest = 0, steepestStep: Float = -1
        for i in 0..<(prof.count - 1) {
            let s = ((prof[i + 1] - prof[i]) * dv).sum()
            if abs(s) > steepestStep { steepestStep = abs(s); steepest = i }
        }
        var best: Double?, bestDistance = Int.max
        var previous = ((prof[0] - first) * dv).sum() / dd
        for i in 0..<(prof.count - 1) {
            let next = ((prof[i + 1] - first) * dv).sum() / dd
            if (previous - 0.5) * (next - 0.5) <= 0, previous != next, abs(i - steepest) < bestDistance {
                bestDistance = abs(i - steepest)
                best = Double(i) + Double((0.5 - previous) / (next - previous))
            }
            previous = next
        }
        return best
    }
}
