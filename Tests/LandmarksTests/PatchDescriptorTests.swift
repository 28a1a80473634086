import FaceData
import Foundation
import Imaging
import Landmarks
import Testing

/// The landmark descriptor (`LandmarkCascade.Workspace.extract`) against a plain scalar transcription
/// of its definition (bilinear grid along the face's axes, central differences, Rajan et al. atan2,
/// trilinear votes, SIFT normalisation): the fast 3x3-cell, 8-bin path and the general path for
/// other layouts, on rolled, scaled and shifted shapes, both crop levels, points at and beyond the
/// crop's edge, a degenerate (NaN) shape and a crop too large for the vector gather.
@Suite struct PatchDescriptorTests {
    /// Same products summed in the same order up to the final normalisation, whose sums of squares
    /// the implementation takes eight lanes at a time: a few float roundings apart at most.
    static let tolerance: Float = 1e-6

    @Test(arguments: [
        DescriptorSpec(cells: 3, cellSamples: 4, bins: 8),  // the shipped model's layout: fast path
        DescriptorSpec(cells: 3, cellSamples: 3, bins: 8),  // fast path, rows of 9 (not whole vectors)
        DescriptorSpec(cells: 3, cellSamples: 1, bins: 8),  // fast path, cells of one sample
        DescriptorSpec(cells: 2, cellSamples: 4, bins: 8),  // general path
        DescriptorSpec(cells: 4, cellSamples: 3, bins: 6),
    ])
    func matchesScalarReference(spec: DescriptorSpec) {
        let cascade = oneStageCascade(spec: spec)
        let image = texturedImage(width: 220, height: 200)
        var ws = LandmarkCascade.Workspace(cascade: cascade)
        var rng = SplitMix64(seed: 0xD35C)
        var worst: Float = 0, compared = 0, nonZero = 0
        for trial in 0..<24 {
            let angle = (rng.unit() - 0.5) * 2.4, scale = 0.6 + rng.unit() * 1.6
            let shift = SIMD2<Float>(110, 100) + SIMD2(rng.unit() - 0.5, rng.unit() - 0.5) * 40
            let (c, s) = (cos(angle), sin(angle))
            var shape = cascade.meanShape.map { p -> SIMD2<Float> in
                SIMD2(c * p.x - s * p.y, s * p.x + c * p.y) * scale + shift
            }
            let crop = cascade.makeCrop(image: image, around: shape)
            // After the crop: some points on and far beyond its edge.
            if trial % 3 == 2 {
                for i in stride(from: 0, to: shape.count, by: 4) { shape[i] += SIMD2(rng.unit() - 0.5, rng.unit() - 0.5) * 600 }
            }
            let stride = 0.4 + rng.unit() * 3.2  // both crop levels
            ws.extract(cascade: cascade, crop: crop, shape: shape, stride: stride)
            let (d, n) = compare(ws.features, cascade: cascade, crop: crop, shape: shape, stride: stride)
            worst = max(worst, d); compared += 1; nonZero += n
        }
        #expect(worst <= Self.tolerance, "max |fast - reference| = \(worst) for \(spec.text)")
        // A cell of one sample fills two of its bins; most cells hold more.
        #expect(nonZero > compared * 68 * spec.length / 8, "descriptors mostly zero: \(nonZero) nonzero")
    }

    @Test func degenerateShapeGivesFiniteReferenceFeatures() {
        for spec in [DescriptorSpec(cells: 3, cellSamples: 4, bins: 8), DescriptorSpec(cells: 2, cellSamples: 4, bins: 8)] {
            let cascade = oneStageCascade(spec: spec)
            let image = texturedImage(width: 160, height: 160)
            var shape = cascade.meanShape.map { $0 + SIMD2<Float>(80, 80) }
            let crop = cascade.makeCrop(image: image, around: shape)
            shape[7] = SIMD2(.nan, 3)
            var ws = LandmarkCascade.Workspace(cascade: cascade)
            ws.extract(cascade: cascade, crop: crop, shape: shape, stride: 1.5)
            #expect(ws.features.allSatisfy { $0.isFinite }, "NaN shape gave non-finite features (\(spec.text))")
            let (d, _) = compare(ws.features, cascade: cascade, crop: crop, shape: shape, stride: 1.5)
            #expect(d <= Self.tolerance, "NaN shape: max |fast - reference| = \(d) (\(spec.text))")
        }
    }

    /// A crop of more than 2^24 pixels takes the scalar gather (float indices would not be exact).
    @Test func hugeCropMatchesReference() {
        let spec = DescriptorSpec(cells: 3, cellSamples: 4, bins: 8)
        let cascade = oneStageCascade(spec: spec)
        let image = texturedImage(width: 96, height: 96)
        // factor 1, 4098 x 4098 level-0 pixels; the image's edge pixels repeat outwards.
        let crop = FaceCrop(image: image, centre: SIMD2(48, 48), halfSide: 2049, faceSide: 96, referenceSide: 96)
        #expect(crop.width * crop.height > 1 << 24)
        let shape = cascade.meanShape.map { $0 * 0.8 + SIMD2<Float>(48, 48) }
        var ws = LandmarkCascade.Workspace(cascade: cascade)
        for stride: Float in [1, 1.4] {  // both on level 0 (level 1 is a quarter the size)
            ws.extract(cascade: cascade, crop: crop, shape: shape, stride: stride)
            let (d, n) = compare(ws.features, cascade: cascade, crop: crop, shape: shape, stride: stride)
            #expect(d <= Self.tolerance, "huge crop, stride \(stride): max |fast - reference| = \(d)")
            #expect(n > 68 * spec.length / 4)
        }
    }

    /// Max |features − reference| over the descriptors, and how many reference values are nonzero.
    private func compare(_ features: [Float], cascade: LandmarkCascade, crop: FaceCrop, shape: [SIMD2<Float>], stride: Float) -> (Float, Int) {
        let t = cascade.referenceTransform(for: shape)
        let axis = SIMD2<Float>(t.a, t.b) * stride
        let len = cascade.descriptor.length
        var worst: Float = 0, nonZero = 0
        for (i, p) in shape.enumerated() {
            let r = referenceDescriptor(crop: crop, spec: cascade.descriptor, point: p, axisX: axis)
            for j in 0..<len {
                let a = features[i * len + j]
                worst = max(worst, a.isNaN || r[j].isNaN ? .infinity : abs(a - r[j]))
                if r[j] != 0 { nonZero += 1 }
            }
        }
        return (worst, nonZero)
    }
}

/// The descriptor by its definition, one sample and one vote at a time.
private func referenceDescriptor(crop: FaceCrop, spec: DescriptorSpec, point: SIMD2<Float>, axisX: SIMD2<Float>) -> [Float] {
    var c = crop.level0Point(point)
    var ax = axisX / Float(crop.factor)
    let w1 = crop.width / 2, h1 = crop.height / 2
    // Level 1 (half resolution) once a grid step exceeds 1.5 level-0 pixels.
    let useHalf = ax.x * ax.x + ax.y * ax.y > 2.25 && w1 >= 4
    if useHalf { c = (c - 0.5) * 0.5; ax *= 0.5 }
    let ay = SIMD2<Float>(-ax.y, ax.x)
    let pixels = useHalf ? crop.level1Pixels : crop.level0Pixels
    let w = useHalf ? w1 : crop.width, h = useHalf ? h1 : crop.height
    let m = spec.cells * spec.cellSamples + 2
    let half = Float(m - 1) / 2
    let maxX = Float(w - 1) - 0.001, maxY = Float(h - 1) - 0.001
    var samples = [Float](repeating: 0, count: m * m)
    for l in 0..<m {
        for k in 0..<m {
            let u = Float(k) - half, v = Float(l) - half
            var x = c.x + ax.x * u + ay.x * v, y = c.y + ax.y * u + ay.y * v
            if !(x >= 0) { x = 0 }  // also NaN
            if x > maxX { x = maxX }
            if !(y >= 0) { y = 0 }
            if y > maxY { y = maxY }
            let xi = Int(x), yi = Int(y)
            let fx = x - Float(xi), fy = y - Float(yi)
            let i = yi * w + xi
            let top = pixels[i] + fx * (pixels[i + 1] - pixels[i])
            let bottom = pixels[i + w] + fx * (pixels[i + w + 1] - pixels[i + w])
            samples[l * m + k] = top + fy * (bottom - top)
        }
    }
    let g = m - 2, bins = spec.bins, cells = spec.cells
    // Per gradient row/column: the two cells it falls between and the upper one's weight.
    func cellsOf(_ k: Int) -> (Int, Int, Float) {
        let f = (Float(k) + 0.5) / Float(spec.cellSamples) - 0.5
        let c0 = Int(f.rounded(.down))
        return (c0, c0 + 1, f - Float(c0))
    }
    var hist = [Float](repeating: 0, count: spec.length)
    for gy in 0..<g {
        for gx in 0..<g {
            let i = (gy + 1) * m + gx + 1
            let dx = samples[i + 1] - samples[i - 1], dy = samples[i + m] - samples[i - m]
            let mag = (dx * dx + dy * dy).squareRoot()
            let t = (referenceAtan2(dy, dx) + Float.pi) * (Float(bins) / (2 * Float.pi))
            var b0 = Int(t)
            let m1 = mag * (t - Float(b0)), m0 = mag - m1
            b0 %= bins
            let b1 = (b0 + 1) % bins
            let (ylo, yhi, wy) = cellsOf(gy), (xlo, xhi, wx) = cellsOf(gx)
            for (cy, wcy) in [(ylo, 1 - wy), (yhi, wy)] where cy >= 0 && cy < cells {
                for (cx, wcx) in [(xlo, 1 - wx), (xhi, wx)] where cx >= 0 && cx < cells {
                    let ww = wcy * wcx
                    hist[(cy * cells + cx) * bins + b0] += m0 * ww
                    hist[(cy * cells + cx) * bins + b1] += m1 * ww
                }
            }
        }
    }
    // SIFT: unit length, clip at 0.2, unit length again.
    var norm = hist.reduce(0) { $0 + $1 * $1 }.squareRoot()
    hist = hist.map { min($0 / (norm + 1e-3), 0.2) }
    norm = hist.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return hist.map { $0 / (norm + 1e-6) }
}

/// Rajan et al. (2006) atan2 polynomial, as the descriptor defines it.
private func referenceAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let steep = ay > ax
    let mx = steep ? ay : ax, mn = steep ? ax : ay
    let z = mx <= 0 ? 0 : mn / mx
    var r = 0.785_398_16 * z + z * (1 - z) * (0.2447 + 0.0663 * z)
    if steep { r = 1.570_796_3 - r }
    if x < 0 { r = Float.pi - r }
    if y < 0 { r = -r }
    return r
}

/// One stage with small random weights over the 68-point test mean shape (only the layout and the
/// mean shape matter to `extract`).
private func oneStageCascade(spec: DescriptorSpec) -> LandmarkCascade {
    let mean = (0..<68).map { i -> SIMD2<Float> in
        let a = Float(i) / 68 * 2 * Float.pi
        return SIMD2(40 * cos(a), 45 * sin(a) * (i % 2 == 0 ? 1 : 0.6))
    }
    let f = 68 * spec.length + 1, rank = 8
    let stage = CascadeStage(stride: 1, featureCount: f, rank: rank,
                             weights: [Float](repeating: 0.001, count: f * rank), basis: [Float](repeating: 0.01, count: rank * 136))
    return LandmarkCascade(meanShape: mean, boxShape: mean.map { $0 / 96 }, descriptor: spec, referenceSide: 96, stages: [stage], shapeFeatureScale: 0)
}
