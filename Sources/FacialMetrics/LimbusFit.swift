import Foundation
import Imaging

/// The iris (limbus) boundary of one eye, refined from a coarse circle: dark iris to bright sclera
/// edges found along rays from its centre, then a robust circle fit.
///
/// Rays fan ±40° about the eye axis on both sides (the lateral limbus, which the lids rarely cover);
/// along each ray the strongest dark-to-bright step (2-pixel central difference of bilinear samples
/// every half pixel) within the radius band is one edge point, sub-pixel by a parabola. A Kåsa circle
/// is fitted, points further than max(0.75 px, 2.5 robust SD) are dropped and it is refitted; the
/// rays are then cast again from the new centre in a narrower band. The horizontal visible iris
/// diameter is 2 × radius. Units: image pixels, pixel-centre convention.
public struct LimbusFit: Sendable {
    /// Result: the circle, how many edge points support it on each side, their RMS distance to it
    /// and their mean step (grey levels per pixel).
    public struct Result: Sendable {
        public var circle: Circle
        public var inliersLeft: Int
        public var inliersRight: Int
        public var rmsResidualPx: Double
        public var meanContrast: Double
        /// The edge points of the last pass and whether each supported the circle (diagnostics).
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

    public init() {}

    /// Refines `start` (a coarse iris circle, e.g. `IrisLocator`'s): rays from its centre with radii
    /// 0.75–1.3 × its radius, then again from the fitted centre within ± 15 % of the fitted radius.
    public func fit(in image: GrayImage, eye: EyeContour, start: Circle) -> Result? {
        let w = eye.width
        guard w >= 6, start.radius > 1 else { return nil }
        var centre = SIMD2(Float(start.centre.x), Float(start.centre.y))
        var rMin = Float(start.radius) * 0.75, rMax = Float(start.radius) * 1.3
        var result: Result?
        for _ in 0..<2 {
            guard let r = pass(image, eye: eye, centre: centre, rMin: rMin, rMax: rMax) else { return result }
            result = r
            centre = SIMD2(Float(r.circle.centre.x), Float(r.circle.centre.y))
            let radius = Float(r.circle.radius)
            rMin = radius * 0.85
            rMax = radius * 1.15
        }
        return result
    }

    /// The edge points of one ray fan from `centre` with radii in [rMin, rMax] (pixels).
    public func edges(in image: GrayImage, eye: EyeContour, centre c: SIMD2<Float>, rMin: Float, rMax: Float) -> [Edge] {
        let ex = eye.axis, ey = SIMD2<Float>(-ex.y, ex.x)
        var out: [Edge] = []
        let step: Float = 0.5
        let count = Int((rMax - rMin) / step) + 5
        var samples = [Float](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { px in
            for side in 0..<2 {
                for k in 0..<raysPerSide {
                    let t = raysPerSide == 1 ? 0 : (Float(k) / Float(raysPerSide - 1) * 2 - 1) * halfFanDegrees * .pi / 180
                    var d = ex * cosf(t) + ey * sinf(t)
                    if side == 0 { d = -d }
                    for i in 0..<count {
                        let r = rMin - 2 * step + Float(i) * step
                        let p = c + d * r
                        samples[i] = bilinear(px, image.width, image.height, p.x, p.y)
                    }
                    var best: Float = 0, bestI = -1
                    for i in 2..<(count - 2) {
                        let g = (samples[i + 2] - samples[i - 2]) / 2  // per pixel
                        guard g > best else { continue }
                        best = g; bestI = i
                    }
                    guard bestI > 2, bestI < count - 3, best >= minimumContrast else { continue }
                    let gm = (samples[bestI + 1] - samples[bestI - 3]) / 2, gp = (samples[bestI + 3] - samples[bestI - 1]) / 2
                    let den = gm - 2 * best + gp
                    let off = den < 0 ? max(-1, min(1, 0.5 * (gm - gp) / den)) : 0
                    let r = rMin - 2 * step + (Float(bestI) + off) * step
                    let p = c + d * r
                    out.append(Edge(point: SIMD2(Double(p.x), Double(p.y)), side: side, step: best))
                }
            }
        }
        return out
    }

    private func pass(_ image: GrayImage, eye: EyeContour, centre c: SIMD2<Float>, rMin: Float, rMax: Float) -> Result? {
        let found = edges(in: image, eye: eye, centre: c, rMin: rMin, rMax: rMax)
        let points = found.map(\.point), sides = found.map(\.side), steps = found.map(\.step)
        guard var circle = Circle.fit(points) else { return nil }
        var keep = [Bool](repeating: true, count: points.count)
        for _ in 0..<2 {
            let res = points.map { abs(circle.residual($0)) }
            let sorted = res.sorted()
            let mad = sorted[sorted.count / 2] * 1.4826
            let limit = max(0.75, 2.5 * mad)
            keep = res.map { $0 <= limit }
            let inl = points.indices.filter { keep[$0] }.map { points[$0] }
            guard let c2 = Circle.fit(inl) else { return nil }
            circle = c2
        }
        var left = 0, right = 0, rms = 0.0, contrast = 0.0, n = 0
        for i in points.indices where keep[i] && abs(circle.residual(points[i])) <= 1.5 {
            if sides[i] == 0 { left += 1 } else { right += 1 }
            rms += circle.residual(points[i]) * circle.residual(points[i])
            contrast += Double(steps[i]); n += 1
        }
        guard left >= minimumInliersPerSide, right >= minimumInliersPerSide, n > 0 else { return nil }
        let w = Double(eye.width)
        guard circle.radius > 0.07 * w, circle.radius < 0.42 * w else { return nil }
        return Result(circle: circle, inliersLeft: left, inliersRight: right, rmsResidualPx: (rms / Double(n)).squareRoot(),
                      meanContrast: contrast / Double(n), edges: found, kept: keep)
    }
}
