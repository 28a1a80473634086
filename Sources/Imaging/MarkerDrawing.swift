/// The shape `drawMarker` draws at a point.
public enum MarkerStyle: Sendable, Hashable {
    /// A filled disc of diameter `size`.
    case dot
    /// A '+' with arms `size / 2` long.
    case plus
    /// An 'x' with arms `size / 2` long (diagonal).
    case cross
    /// A square outline of side `size`.
    case square
}

extension RGBImage {
    /// Draws a marker centred on `p` (pixel-centre coordinates), anti-aliased and clipped: the
    /// way landmarks, pupils and tracked points are shown in debug output.
    public mutating func drawMarker(at p: SIMD2<Float>, color: RGBColor, size: Float = 5, style: MarkerStyle = .dot,
                                    thickness: Float = 1, opacity: Float = 1) {
        let h = size / 2
        switch style {
        case .dot:
            fillCircle(center: p, radius: h, color: color, opacity: opacity)
        case .plus:
            drawLine(from: p - SIMD2(h, 0), to: p + SIMD2(h, 0), color: color, thickness: thickness, opacity: opacity)
            drawLine(from: p - SIMD2(0, h), to: p + SIMD2(0, h), color: color, thickness: thickness, opacity: opacity)
        case .cross:
            let k = h * 0.7071
            drawLine(from: p - SIMD2(k, k), to: p + SIMD2(k, k), color: color, thickness: thickness, opacity: opacity)
            drawLine(from: p + SIMD2(-k, k), to: p + SIMD2(k, -k), color: color, thickness: thickness, opacity: opacity)
        case .square:
            drawPolyline([p + SIMD2(-h, -h), p + SIMD2(h, -h), p + SIMD2(h, h), p + SIMD2(-h, h)], closed: true,
                         color: color, thickness: thickness, opacity: opacity)
        }
    }

    /// `drawMarker` at every point (e.g. all 68 landmarks).
    public mutating func drawMarkers(_ points: [SIMD2<Float>], color: RGBColor, size: Float = 5,
                                     style: MarkerStyle = .dot, thickness: Float = 1, opacity: Float = 1) {
        for p in points {
            drawMarker(at: p, color: color, size: size, style: style, thickness: thickness, opacity: opacity)
        }
    }
}
