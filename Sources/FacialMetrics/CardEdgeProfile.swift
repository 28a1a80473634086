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

    /// Where the card's own edge crosses halfway between the card and what lies just beyond it, in
    /// profile steps (0 = first sample, fractional); the profile runs from outside the card to inside
    /// it (its last sample is on the card). Nil when no edge of at least 4 levels is found.
    ///
    /// 1. The edge is the first step, walking out from the card, that is a local maximum of the 1 px
    ///    colour step and at least a third of the profile's strongest: the card hides whatever lies
    ///    behind it, so the first change leaving its plain face is its side, while the strongest step
    ///    in the window may be an edge beyond it (a shadow, the hair's edge).
    /// 2. Its two ends are where the step, walking away from that peak, drops under a fifth of the
    ///    peak or, once under half of it, rises again: the blur's plateaus, not the window's ends. Then
    ///    the halfway crossing on the line in colour between those ends. A blurred edge's halfway point
    ///    is the edge whatever the blur's width (the gradient maximum slid 1–3 px towards hair
    ///    darkening away from a motion-blurred side, d3 frames 29–33). Ends at the window's fixed
    ///    ±4 px took in what lies beyond the plateau: on d20 frames 3–13 they put the card's bottom
    ///    side 1.0–1.4 px low at its left end, darker skin a few pixels below it (8 frames; 3 left).
    ///
    /// Not solved: where the ramp from the card runs on, with no plateau, into darker hair (d3 frames
    /// 271–284, the card's right side at 20–28° of yaw, a strip of skin 0–3 px wide between them), the
    /// far end is the hair and the side leans outward by 1–3 px at its lower end.
    static func cardSideCrossing(_ prof: [SIMD3<Float>]) -> Double? {
        let count = prof.count
        guard count >= 5 else { return nil }
        var g = [Float](repeating: 0, count: count)
        for i in 1..<(count - 1) { g[i] = step(prof[i - 1], prof[i + 1]) }
        let strongest = g.max()!
        guard strongest > 4 else { return nil }
        var peak = -1
        for i in stride(from: count - 2, through: 1, by: -1) where g[i] >= strongest / 3 && g[i] >= g[i - 1] && g[i] >= g[i + 1] {
            peak = i; break
        }
        guard peak > 0 else { return nil }
        let floor = g[peak] / 5
        var outer = peak, inner = peak
        // A valley is where the step, once under half the peak, rises again: the next edge beyond.
        // Within half the peak the walk goes on, as a motion blur's box-shaped ramp has a flat top
        // whose noise would otherwise stop it inside the ramp (d3 frames 29–35: sides 1–2 px inward).
        let half = g[peak] / 2
        while outer > 1, g[outer - 1] > floor, !(g[outer - 1] > g[outer] && g[outer] < half) { outer -= 1 }
        while inner < count - 2, g[inner + 1] > floor, !(g[inner + 1] > g[inner] && g[inner] < half) { inner += 1 }
        let from = prof[outer - 1], to = prof[inner + 1]
        let dv = to - from
        let dd = (dv * dv).sum()
        guard dd / 3 >= 16 else { return nil }
        var best: Double?, bestDistance = Int.max
        var previous: Float = 0
        for i in (outer - 1)..<(inner + 1) {
            let next = ((prof[i + 1] - from) * dv).sum() / dd
            if (previous - 0.5) * (next - 0.5) <= 0, previous != next, abs(i - peak) < bestDistance {
                bestDistance = abs(i - peak)
                best = Double(i) + Double((0.5 - previous) / (next - previous))
            }
            previous = next
        }
        return best
    }
}
