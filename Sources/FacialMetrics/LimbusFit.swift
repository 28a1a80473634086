import Foundation
import Imaging

/// The iris (limbus) boundary of one eye, refined from a coarse circle: dark iris to bright sclera
/// edges found along rays from its centre, then a robust circle fit.
///
/// Rays fan ±40° about the eye axis on both sides (the lateral limbus, which the lids rarely cover),
/// less those whose limbus point the eye contour puts behind a lid;
/// along each ray the strongest dark-to-bright step (2-pixel central difference of bilinear samples
/// every half pixel) within the radius band is one edge point, placed at the centroid of the step's
/// gradient in linear light (where a blurred step is, before gamma encoding skews it). A Kåsa circle
/// is fitted, points further than max(0.75 px, 2.5 robust SD) are dropped and it is refitted; the
/// rays are then cast again from the new centre in a narrower band; the last radius is corrected for
/// the edges' blur (`blurCorrected`). The horizontal visible iris diameter is 2 × radius.
/// Units: image pixels, pixel-centre convention.
///
/// The per-frame path (`fit(in:eye:start:scratch:)`) works in a `LimbusScratch` built once and does
/// not allocate; the plain `fit` and `edges` also return the edge points, for diagnostics.
public struct LimbusFit: Sendable {
    /// Result: the circle, how many edge points support it on each side, their RMS distance to it
    /// and their mean step (grey levels per pixel).
    public struct Result: Sendable {
        public var circle: Circle
        public var inliersLeft: Int
        public var inliersRight: Int
        public var rmsResidualPx: Double
        public var meanContrast: Double
        /// The blur of the edges (pixels, a Gaussian's SD, the median over the supporting rays, less
        /// the ray's own 2-pixel difference), from which `circle.radius` was corrected (`blurCorrected`).
        public var edgeBlurPx: Double = 0
        /// The edge points of the last pass and whether each supported the circle (diagnostics; empty
        /// from the scratch-space path).
        public var edges: [Edge] = []
        public var kept: [Bool] = []
    }

    /// One dark-to-bright step found along a ray: image point, side (0 = image left of the
    /// centre, 1 = right) and step (grey levels per pixel).
    public struct Edge: Sendable {
        public var point: SIMD2<Double>
        public var side: Int
        public var step: Float
    }

    public var raysPerSide = 17
    public var halfFanDegrees: Float = 40
    public var minimumContrast: Float = 4
    public var minimumInliersPerSide = 3
    /// Blur moves a circle's edge inwards: the steepest point of a dark disc blurred by a Gaussian of
    /// SD σ lies σ²/(2R) inside its radius R (the edge's curvature; a straight edge does not move).
    /// That is 1 % of a 14 px iris at σ = 1 px but 4 % of a 7 px one, so the same face read its iris
    /// 2.1 % smaller at half resolution (videoretalking_face1, issue 24) and its PD 1.8 mm larger.
    /// With this on, each ray measures its edge's blur (the outer half width at half maximum of the
    /// step in linear light), and the fitted radius R' becomes R' + σ²/(2R') with σ the rays' median.
    public var blurCorrected = true

    public init() {}

    /// Refines `start` (a coarse iris circle, e.g. `IrisLocator`'s): rays from its centre with radii
    /// 0.75–1.3 × its radius, then again from the fitted centre within ± 15 % of the fitted radius.
    /// Returns the last pass's edge points too (allocates).
    public func fit(in image: GrayImage, eye: EyeContour, start: Circle) -> Result? {
        let scratch = LimbusScratch()
        guard var r = fit(in: image, eye: eye, start: start, scratch: scratch) else { return nil }
        r.edges = (0..<scratch.count).map { Edge(point: scratch.points[$0], side: scratch.sides[$0], step: scratch.steps[$0]) }
        r.kept = (0..<scratch.count).map { scratch.keep[$0] }
        return r
    }

    /// `fit(in:eye:start:)` in `scratch` (no allocation once the scratch has grown to the eye size).
    public func fit(in image: GrayImage, eye: EyeContour, start: Circle, scratch: LimbusScratch) -> Result? {
        let w = eye.width
        guard w >= 6, start.radius > 1 else { return nil }
        var centre = SIMD2(Float(start.centre.x), Float(start.centre.y))
        var rMin = Float(start.radius) * 0.75, rMax = Float(start.radius) * 1.3
        var result: Result?
        for _ in 0..<2 {
            guard let r = pass(image, eye: eye, centre: centre, rMin: rMin, rMax: rMax, scratch: scratch) else { break }
            result = r
            centre = SIMD2(Float(r.circle.centre.x), Float(r.circle.centre.y))
            let radius = Float(r.circle.radius)
            rMin = radius * 0.85
            rMax = radius * 1.15
        }
        if var r = result, blurCorrected {
            r.circle.radius += r.edgeBlurPx * r.edgeBlurPx / (2 * r.circle.radius)
            result = r
        }
        return result
    }

    /// The edge points of one ray fan from `centre` with radii in [rMin, rMax] (pixels).
    public func edges(in image: GrayImage, eye: EyeContour, centre c: SIMD2<Float>, rMin: Float, rMax: Float) -> [Edge] {
        let scratch = LimbusScratch()
        collectEdges(image, eye: eye, centre: c, rMin: rMin, rMax: rMax, scratch: scratch)
        return (0..<scratch.count).map { Edge(point: scratch.points[$0], side: scratch.sides[$0], step: scratch.steps[$0]) }
    }

    /// Casts the rays and leaves the edge points in `scratch` (`count` of them).
    private func collectEdges(_ image: GrayImage, eye: EyeContour, centre c: SIMD2<Float>, rMin: Float, rMax: Float, scratch: LimbusScratch) {
        let ex = eye.axis, ey = SIMD2<Float>(-ex.y, ex.x)
        let step: Float = 0.5
        let count = Int((rMax - rMin) / step) + 5
        // Samples past the search band, where the outer half of a step found near its end decays
        // (a half width at half maximum of up to 3 px).
        let total = count + (blurCorrected ? 6 : 0)
        scratch.prepare(samples: total, edges: 2 * raysPerSide)
        let samples = scratch.samples, linear = scratch.linear, widths = scratch.blurVariances
        // A ray whose limbus point (at the band's middle radius) lies outside the eye contour meets
        // a lid first: its step is iris to lid, inside the limbus. On the mean face's opening the
        // outer rays of the fan do this to an 11.7 mm iris, and the fit read the rendered iris 3.3 %
        // small (issue 24); real lids cover the iris's top and bottom the same way. The contour's
        // straight lid segments lie inside the curved lids, so a ray kept is inside the opening.
        // Too few rays left on a side (a squint): all are cast, and the gate's visible-iris test
        // judges the eye.
        let nominal = (rMin + rMax) / 2
        func direction(_ side: Int, _ k: Int) -> SIMD2<Float> {
            let t = raysPerSide == 1 ? 0 : (Float(k) / Float(raysPerSide - 1) * 2 - 1) * halfFanDegrees * .pi / 180
            let d = ex * cosf(t) + ey * sinf(t)
            return side == 0 ? -d : d
        }
        var visible = (0, 0)
        for k in 0..<raysPerSide {
            if eye.contains(c + direction(0, k) * nominal) { visible.0 += 1 }
            if eye.contains(c + direction(1, k) * nominal) { visible.1 += 1 }
        }
        let skipHidden = min(visible.0, visible.1) > minimumInliersPerSide
        var n = 0
        image.pixels.withUnsafeBufferPointer { px in
            for side in 0..<2 {
                for k in 0..<raysPerSide {
                    let d = direction(side, k)
                    if skipHidden && !eye.contains(c + d * nominal) { continue }
                    for i in 0..<total {
                        let r = rMin - 2 * step + Float(i) * step
                        let p = c + d * r
                        samples[i] = bilinear(px, image.width, image.height, p.x, p.y)
                        linear[i] = linearLight(px, image.width, image.height, p.x, p.y)
                    }
                    var best: Float = 0, bestI = -1
                    for i in 2..<(count - 2) {
                        let g = (samples[i + 2] - samples[i - 2]) / 2  // per pixel
                        guard g > best else { continue }
                        best = g; bestI = i
                    }
                    guard bestI > 2, bestI < count - 3, best >= minimumContrast else { continue }
                    // Where the step is: the centroid of its gradient in linear light, above half the
                    // peak, within ± 2 px of the strongest sRGB step. Lens blur and a sensor's pixels
                    // mix light linearly and the frame is gamma-encoded after, so in the encoded
                    // values a blurred dark-to-bright step is steepest on its dark side: the peak
                    // of the encoded gradient sat ≈ 0.2 px inside the iris on every ray, and the
                    // diameter read 0.4 px small whatever its size (rendered irises of 16–38 px,
                    // `eval coverage --sharp`, issue 24). The strongest encoded step still picks
                    // the edge and gives its contrast (the gate's thresholds are in grey levels).
                    let lo = max(2, bestI - 4), hi = min(count - 3, bestI + 4)
                    var peak: Float = 0, peakI = lo
                    for i in lo...hi where linear[i + 2] - linear[i - 2] > peak { peak = linear[i + 2] - linear[i - 2]; peakI = i }
                    var weight: Float = 0, moment: Float = 0
                    var i = bestI
                    while i > lo, linear[i + 1] - linear[i - 3] > peak / 2 { i -= 1 }
                    while i <= hi {
                        let w = linear[i + 2] - linear[i - 2] - peak / 2
                        if w > 0 { weight += w; moment += w * Float(i) } else if i > bestI { break }
                        i += 1
                    }
                    let position = weight > 0 ? moment / weight : Float(bestI)
                    // The step's blur: where its linear-light gradient falls to half the peak outwards
                    // (the sclera side; inwards the pupil's edge and the iris's texture join it), as a
                    // Gaussian's SD (half width at half maximum / 1.1774), less the variance the ray's
                    // 2-pixel difference adds (a box of 2 px: 1/3 px²). NaN when it does not fall in reach.
                    var j = peakI
                    while j + 1 <= total - 3, linear[j + 3] - linear[j - 1] > peak / 2 { j += 1 }
                    if blurCorrected, j + 1 <= total - 3, peak > 0 {
                        let g0 = linear[j + 2] - linear[j - 2], g1 = linear[j + 3] - linear[j - 1]
                        let half = Float(j) + (g0 - peak / 2) / max(g0 - g1, 1e-6)
                        let sd = (half - position) * step / 1.1774
                        widths[n] = Double(max(0, sd * sd - 1.0 / 3))
                    } else {
                        widths[n] = .nan
                    }
                    let r = rMin - 2 * step + position * step
                    let p = c + d * r
                    scratch.points[n] = SIMD2(Double(p.x), Double(p.y))
                    scratch.sides[n] = side
                    scratch.steps[n] = best
                    n += 1
                }
            }
        }
        scratch.count = n
    }

    private func pass(_ image: GrayImage, eye: EyeContour, centre c: SIMD2<Float>, rMin: Float, rMax: Float, scratch s: LimbusScratch) -> Result? {
        collectEdges(image, eye: eye, centre: c, rMin: rMin, rMax: rMax, scratch: s)
        let count = s.count
        let points = UnsafeBufferPointer(start: s.points, count: count)
        guard var circle = Circle.fit(points) else { return nil }
        for i in 0..<count { s.keep[i] = true }
        for _ in 0..<2 {
            for i in 0..<count { s.residuals[i] = abs(circle.residual(points[i])) }
            // The median residual: an insertion sort of a copy (≤ 2 × raysPerSide values).
            for i in 0..<count { s.sorted[i] = s.residuals[i] }
            insertionSort(s.sorted, count)
            let mad = s.sorted[count / 2] * 1.4826
            let limit = max(0.75, 2.5 * mad)
            var m = 0
            for i in 0..<count {
                s.keep[i] = s.residuals[i] <= limit
                if s.keep[i] { s.inliers[m] = points[i]; m += 1 }
            }
            guard let c2 = Circle.fit(UnsafeBufferPointer(start: s.inliers, count: m)) else { return nil }
            circle = c2
        }
        var left = 0, right = 0, rms = 0.0, contrast = 0.0, n = 0
        for i in 0..<count where s.keep[i] && abs(circle.residual(points[i])) <= 1.5 {
            if s.sides[i] == 0 { left += 1 } else { right += 1 }
            rms += circle.residual(points[i]) * circle.residual(points[i])
            contrast += Double(s.steps[i]); n += 1
        }
        guard left >= minimumInliersPerSide, right >= minimumInliersPerSide, n > 0 else { return nil }
        let w = Double(eye.width)
        guard circle.radius > 0.07 * w, circle.radius < 0.42 * w else { return nil }
        // The median blur variance of the supporting rays (`sorted` is free again).
        var m = 0
        for i in 0..<count where s.keep[i] && s.blurVariances[i].isFinite { s.sorted[m] = s.blurVariances[i]; m += 1 }
        insertionSort(s.sorted, m)
        let blur = m > 0 ? s.sorted[m / 2].squareRoot() : 0
        return Result(circle: circle, inliersLeft: left, inliersRight: right, rmsResidualPx: (rms / Double(n)).squareRoot(),
                      meanContrast: contrast / Double(n), edgeBlurPx: blur)
    }
}

/// sRGB code → linear light, on the 0–255 scale of the codes.
private let linearOfCode: [Float] = (0...255).map { 255 * SRGB.decode(code: UInt8($0)) }

/// `bilinear` in linear light: the four pixels decoded from sRGB, then interpolated.
@inline(__always) private func linearLight(_ px: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> Float {
    linearOfCode.withUnsafeBufferPointer { bilinear(px, w, h, x, y, through: $0) }
}

/// Ascending insertion sort of the first `count` values (small n; allocation-free).
@inline(__always) func insertionSort(_ a: UnsafeMutablePointer<Double>, _ count: Int) {
    guard count > 1 else { return }
    for i in 1..<count {
        let x = a[i]
        var j = i - 1
        while j >= 0 && a[j] > x { a[j + 1] = a[j]; j -= 1 }
        a[j + 1] = x
    }
}

/// Scratch space of `LimbusFit`: ray samples and edge points, kept between frames so that the
/// per-frame fit does not allocate. Grows (once) to the largest eye and ray count seen. Not
/// thread-safe: one per refiner.
public final class LimbusScratch {
    private(set) var samples: UnsafeMutablePointer<Float>
    /// The same samples in linear light (0–255 scale).
    private(set) var linear: UnsafeMutablePointer<Float>
    private(set) var points: UnsafeMutablePointer<SIMD2<Double>>
    private(set) var inliers: UnsafeMutablePointer<SIMD2<Double>>
    private(set) var sides: UnsafeMutablePointer<Int>
    private(set) var steps: UnsafeMutablePointer<Float>
    private(set) var keep: UnsafeMutablePointer<Bool>
    private(set) var residuals: UnsafeMutablePointer<Double>
    private(set) var sorted: UnsafeMutablePointer<Double>
    /// Each edge point's blur variance (px², NaN when not measured).
    private(set) var blurVariances: UnsafeMutablePointer<Double>
    private var sampleCapacity = 0
    private var edgeCapacity = 0
    /// Edge points found by the last ray fan.
    var count = 0

    public init() {
        samples = .allocate(capacity: 1); linear = .allocate(capacity: 1); points = .allocate(capacity: 1); inliers = .allocate(capacity: 1)
        sides = .allocate(capacity: 1); steps = .allocate(capacity: 1); keep = .allocate(capacity: 1)
        residuals = .allocate(capacity: 1); sorted = .allocate(capacity: 1); blurVariances = .allocate(capacity: 1)
        prepare(samples: 128, edges: 64)
    }

    deinit { release() }

    private func release() {
        samples.deallocate(); linear.deallocate(); points.deallocate(); inliers.deallocate(); sides.deallocate(); steps.deallocate()
        keep.deallocate(); residuals.deallocate(); sorted.deallocate(); blurVariances.deallocate()
    }

    func prepare(samples sampleCount: Int, edges edgeCount: Int) {
        if sampleCount > sampleCapacity {
            samples.deallocate(); linear.deallocate()
            sampleCapacity = max(sampleCount, 2 * sampleCapacity)
            samples = .allocate(capacity: sampleCapacity); linear = .allocate(capacity: sampleCapacity)
        }
        if edgeCount > edgeCapacity {
            points.deallocate(); inliers.deallocate(); sides.deallocate(); steps.deallocate(); keep.deallocate()
            residuals.deallocate(); sorted.deallocate(); blurVariances.deallocate()
            edgeCapacity = max(edgeCount, 2 * edgeCapacity)
            points = .allocate(capacity: edgeCapacity); inliers = .allocate(capacity: edgeCapacity)
            sides = .allocate(capacity: edgeCapacity); steps = .allocate(capacity: edgeCapacity)
            keep = .allocate(capacity: edgeCapacity); residuals = .allocate(capacity: edgeCapacity)
            sorted = .allocate(capacity: edgeCapacity); blurVariances = .allocate(capacity: edgeCapacity)
        }
    }
}
