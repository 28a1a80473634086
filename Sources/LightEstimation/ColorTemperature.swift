/// Correlated colour temperature (CCT) of linear sRGB colours, and the colour of a black body.
///
/// `kelvin(of:)`: linear sRGB (D65) → CIE 1931 XYZ (IEC 61966-2-1 matrix) → chromaticity (x, y) →
/// McCamy's cubic CCT approximation (McCamy 1992, "Correlated color temperature as an explicit
/// function of chromaticity coordinates", Color Res. Appl. 17:142), within a few kelvin of the
/// exact CCT from 2,856 K to 6,504 K and a few tens of kelvin up to 10,000 K. sRGB white (D65)
/// reads 6,504 K. `rgb(kelvin:)`: the Planckian locus in (x, y) by Kim et al.'s cubic spline
/// (Kim et al. 2002, US patent 7,024,034; valid 1,667–25,000 K) → linear sRGB with luminance 1.
public enum ColorTemperature {
    /// CCT in kelvin of a linear sRGB colour, nil when it is black or its chromaticity is
    /// degenerate. Far from the Planckian locus (saturated colours) CCT is not meaningful; the
    /// result is clamped to 1,000–40,000 K.
    public static func kelvin(of rgb: SIMD3<Float>) -> Float? {
        let r = Double(rgb.x), g = Double(rgb.y), b = Double(rgb.z)
        let X = 0.4124 * r + 0.3576 * g + 0.1805 * b
        let Y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let Z = 0.0193 * r + 0.1192 * g + 0.9505 * b
        let s = X + Y + Z
        guard s > 1e-9, Y > 0 else { return nil }
        let x = X / s, y = Y / s
        guard abs(0.1858 - y) > 1e-6 else { return nil }
        let n = (x - 0.3320) / (0.1858 - y)
        let cct = 449 * n * n * n + 3525 * n * n + 6823.3 * n + 5520.33
        guard cct.isFinite else { return nil }
        return Float(min(max(cct, 1000), 40000))
    }

    /// Linear sRGB colour (luminance 1) of a black body at `kelvin` (clamped to 1,667–25,000 K).
    public static func rgb(kelvin: Float) -> SIMD3<Float> {
        let t = Double(min(max(kelvin, 1667), 25000))
        let t1 = 1e3 / t, t2 = t1 * t1, t3 = t2 * t1
        let x = t <= 4000 ? -0.2661239 * t3 - 0.2343589 * t2 + 0.8776956 * t1 + 0.179910
                          : -3.0258469 * t3 + 2.1070379 * t2 + 0.2226347 * t1 + 0.240390
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        let X = x / y, Y = 1.0, Z = (1 - x - y) / y
        let r = 3.2406 * X - 1.5372 * Y - 0.4986 * Z
        let g = -0.9689 * X + 1.8758 * Y + 0.0415 * Z
        let b = 0.0557 * X - 0.2040 * Y + 1.0570 * Z
        return SIMD3<Float>(Float(max(r, 0)), Float(max(g, 0)), Float(max(b, 0)))
    }

    /// Rec. 709 / sRGB relative luminance of a linear colour.
    @inline(__always) public static func luminance(_ c: SIMD3<Float>) -> Float {
        0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
    }
}
