import Foundation
import Imaging

/// A magnified colour picture of one eye with what the pupil refiner saw, for looking at failures:
/// the grey eye region around the lid contour, the six contour points (green), the coarse circle
/// (blue), the limbus edge points of the first ray fan (red) and of the final fit (yellow: kept,
/// orange: rejected), and the fitted circle and its centre (cyan).
///
/// The crop spans 1.6 eye widths × 1.0 eye width about the corner midpoint, magnified `zoom` times
/// (nearest neighbour, so single pixels stay visible). Diagnostics only; not used per frame.
public enum EyeDiagnosticImage {
    public static func render(_ image: GrayImage, eye: EyeContour, refiner: PupilRefiner, zoom: Int = 8) -> RGBImage {
        let d = refiner.diagnose(image, eye: eye)
        let m = eye.cornerMidpoint, w = eye.width
        let x0 = Int((m.x - 0.8 * w).rounded(.down)), y0 = Int((m.y - 0.5 * w).rounded(.down))
        let cw = max(1, Int((1.6 * w).rounded(.up))), ch = max(1, Int(w.rounded(.up)))
        var out = RGBImage(width: cw * zoom, height: ch * zoom)
        for y in 0..<(ch * zoom) {
            for x in 0..<(cw * zoom) {
                let ix = x0 + x / zoom, iy = y0 + y / zoom
                let g: UInt8 = (ix >= 0 && iy >= 0 && ix < image.width && iy < image.height) ? image.pixels[iy * image.width + ix] : 0
                out.pixels[(y * out.width + x) * 3] = g
                out.pixels[(y * out.width + x) * 3 + 1] = g
                out.pixels[(y * out.width + x) * 3 + 2] = g
            }
        }
        func put(_ p: SIMD2<Double>, _ c: (UInt8, UInt8, UInt8), radius: Int = 2) {
            // Pixel-centre convention: image pixel (i, j) covers [i - 0.5, i + 0.5], drawn at its zoomed centre.
            let cx = Int(((p.x - Double(x0)) * Double(zoom) + Double(zoom) / 2).rounded(.down))
            let cy = Int(((p.y - Double(y0)) * Double(zoom) + Double(zoom) / 2).rounded(.down))
            for dy in -radius...radius {
                for dx in -radius...radius {
                    let x = cx + dx, y = cy + dy
                    guard x >= 0, y >= 0, x < out.width, y < out.height else { continue }
                    out.pixels[(y * out.width + x) * 3] = c.0
                    out.pixels[(y * out.width + x) * 3 + 1] = c.1
                    out.pixels[(y * out.width + x) * 3 + 2] = c.2
                }
            }
        }
        func f(_ p: SIMD2<Float>) -> SIMD2<Double> { SIMD2(Double(p.x), Double(p.y)) }
        if let fit = d.fit {
            let n = 360
            for k in 0..<n {
                let a = Double(k) / Double(n) * 2 * .pi
                put(fit.circle.centre + SIMD2(cos(a), sin(a)) * fit.circle.radius, (0, 220, 220), radius: 0)
            }
            put(fit.circle.centre, (0, 220, 220), radius: 2)
        }
        for e in d.firstEdges { put(e.point, (230, 0, 0), radius: 1) }
        if let fit = d.fit {
            for (i, e) in fit.edges.enumerated() { put(e.point, fit.kept[i] ? (255, 230, 0) : (255, 120, 0), radius: 1) }
        }
        for p in eye.points { put(f(p), (0, 200, 0), radius: 2) }
        if let c = d.coarse {
            for k in 0..<180 {
                let a = Double(k) / 180 * 2 * .pi
                put(c.centre + SIMD2(cos(a), sin(a)) * c.radius, (40, 80, 255), radius: 0)
            }
            put(c.centre, (40, 80, 255), radius: 2)
        }
        return out
    }
}
