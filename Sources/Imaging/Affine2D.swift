/// A 2-D affine map of pixel coordinates: p' = (a x + b y + tx, c x + d y + ty).
///
/// Used by `GrayImage.warped` / `RGBImage.warped` as the map from *target* to *source* pixel
/// coordinates (so every target pixel pulls one bilinear sample); both frames follow the
/// pixel-centre convention.
public struct Affine2D: Sendable, Hashable {
    public var a: Float, b: Float, tx: Float
    public var c: Float, d: Float, ty: Float

    public init(a: Float, b: Float, tx: Float, c: Float, d: Float, ty: Float) {
        self.a = a; self.b = b; self.tx = tx; self.c = c; self.d = d; self.ty = ty
    }

    public static let identity = Affine2D(a: 1, b: 0, tx: 0, c: 0, d: 1, ty: 0)

    /// Rotation by `angle` radians (counter-clockwise on screen is negative, since y points down),
    /// uniform `scale`, then `translation`.
    public static func similarity(scale: Float, angle: Float, translation: SIMD2<Float>) -> Affine2D {
        let (sine, cosine) = sinCos(Double(angle))
        let cs = scale * Float(cosine), sn = scale * Float(sine)
        return Affine2D(a: cs, b: -sn, tx: translation.x, c: sn, d: cs, ty: translation.y)
    }

    @inlinable
    public func apply(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(a * p.x + b * p.y + tx, c * p.x + d * p.y + ty)
    }

    /// `self` after `other`: (self ∘ other)(p) = self(other(p)).
    public func concatenating(_ other: Affine2D) -> Affine2D {
        Affine2D(a: a * other.a + b * other.c, b: a * other.b + b * other.d, tx: a * other.tx + b * other.ty + tx,
                 c: c * other.a + d * other.c, d: c * other.b + d * other.d, ty: c * other.tx + d * other.ty + ty)
    }

    /// The inverse map, or nil when the linear part is singular.
    public var inverted: Affine2D? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Affine2D(a: ia, b: ib, tx: -(ia * tx + ib * ty), c: ic, d: id, ty: -(ic * tx + id * ty))
    }
}

extension GrayImage {
    /// A `width x height` image whose pixel (x, y) is `sample(sourceFromTarget.apply((x, y)))`:
    /// bilinear, borders replicated. Crops rotated and scaled regions (face patches, training
    /// jitter) in one pass; with a pure scale-and-translate map it equals a bilinear resize of
    /// the mapped region.
    public func warped(width: Int, height: Int, sourceFromTarget m: Affine2D) -> GrayImage {
        var out = GrayImage(width: width, height: height)
        if width == 0 || height == 0 { return out }
        out.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0 ..< height {
                // Per-row start point, then constant steps (a, c) along the row.
                var sx = m.b * Float(y) + m.tx, sy = m.d * Float(y) + m.ty
                let row = y * width
                for x in 0 ..< width {
                    dst[row + x] = UInt8(sample(x: sx, y: sy) + 0.5)
                    sx += m.a; sy += m.c
                }
            }
        }
        return out
    }
}

extension RGBImage {
    /// RGB version of `GrayImage.warped`: bilinear per channel, borders replicated.
    public func warped(width: Int, height: Int, sourceFromTarget m: Affine2D) -> RGBImage {
        var out = RGBImage(width: width, height: height)
        let w = self.width, h = self.height
        if width == 0 || height == 0 || w == 0 || h == 0 { return out }
        let maxX = Float(w - 1), maxY = Float(h - 1)
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0 ..< height {
                    var sx = m.b * Float(y) + m.tx, sy = m.d * Float(y) + m.ty
                    for x in 0 ..< width {
                        var fx = sx, fy = sy
                        if !(fx > 0) { fx = 0 } else if fx > maxX { fx = maxX }
                        if !(fy > 0) { fy = 0 } else if fy > maxY { fy = maxY }
                        let x0 = Int(fx), y0 = Int(fy)
                        let ax = fx - Float(x0), ay = fy - Float(y0)
                        let dx = x0 < w - 1 ? 3 : 0, dy = y0 < h - 1 ? 3 * w : 0
                        let i = 3 * (y0 * w + x0), o = 3 * (y * width + x)
                        for k in 0 ..< 3 {
                            let p00 = Float(src[i + k]), p01 = Float(src[i + dx + k])
                            let p10 = Float(src[i + dy + k]), p11 = Float(src[i + dy + dx + k])
                            let top = p00 + (p01 - p00) * ax, bottom = p10 + (p11 - p10) * ax
                            dst[o + k] = UInt8(top + (bottom - top) * ay + 0.5)
                        }
                        sx += m.a; sy += m.c
                    }
                }
            }
        }
        return out
    }
}

/// sin and cos of `x` radians without Foundation (the Imaging module has no libm import):
/// reduction to [-pi/4, pi/4] by quarter turns, then Taylor series to x^17 and x^16, which are
/// accurate to double precision on that interval.
func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    guard x.isFinite else { return (.nan, .nan) }
    let quarter = (x / (Double.pi / 2)).rounded()
    let r = x - quarter * (Double.pi / 2)
    let r2 = r * r
    var s = 0.0, c = 0.0
    var termS = r, termC = 1.0
    for k in 0 ..< 9 {
        s += termS; c += termC
        termS *= -r2 / Double((2 * k + 2) * (2 * k + 3))
        termC *= -r2 / Double((2 * k + 1) * (2 * k + 2))
    }
    switch Int(quarter.truncatingRemainder(dividingBy: 4) + 4) % 4 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}
