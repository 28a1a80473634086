extension GrayImage {
    /// The image value at a sub-pixel point by bilinear interpolation, in gray levels 0...255.
    ///
    /// Pixel-centre convention: `sample(x: 2, y: 3)` is exactly `self[2, 3]`. Points outside the
    /// image are clamped to the nearest border pixel centre (edge replication); NaN coordinates
    /// behave as 0. An empty image samples as 0. Inlinable so the landmark regressor's
    /// feature loop compiles to straight-line loads and multiply-adds.
    @inlinable
    public func sample(x: Float, y: Float) -> Float {
        if width == 0 || height == 0 { return 0 }
        return pixels.withUnsafeBufferPointer { bilinear($0, width, height, x, y) }
    }

    /// `sample(x:y:)` at a point.
    @inlinable
    public func sample(_ p: SIMD2<Float>) -> Float { sample(x: p.x, y: p.y) }

    /// `sample(x:y:)` at every point of `points`, written to `values` (resized to match).
    /// The batch form for shape-indexed features: one pointer set-up for the whole set.
    public func sample(_ points: [SIMD2<Float>], into values: inout [Float]) {
        if values.count != points.count { values = [Float](repeating: 0, count: points.count) }
        let w = width, h = height
        if w == 0 || h == 0 {
            for i in values.indices { values[i] = 0 }
            return
        }
        let maxX = Float(w - 1), maxY = Float(h - 1)
        pixels.withUnsafeBufferPointer { p in
            points.withUnsafeBufferPointer { pts in
                values.withUnsafeMutableBufferPointer { out in
                    for k in 0 ..< pts.count {
                        var fx = pts[k].x, fy = pts[k].y
                        if !(fx > 0) { fx = 0 } else if fx > maxX { fx = maxX }
                        if !(fy > 0) { fy = 0 } else if fy > maxY { fy = maxY }
                        let x0 = Int(fx), y0 = Int(fy)
                        let ax = fx - Float(x0), ay = fy - Float(y0)
                        let dx = x0 < w - 1 ? 1 : 0, dy = y0 < h - 1 ? w : 0
                        let i = y0 * w + x0
                        let p00 = Float(p[i]), p01 = Float(p[i + dx])
                        let p10 = Float(p[i + dy]), p11 = Float(p[i + dy + dx])
                        let top = p00 + (p01 - p00) * ax
                        let bottom = p10 + (p11 - p10) * ax
                        out[k] = top + (bottom - top) * ay
                    }
                }
            }
        }
    }
}

/// The bilinear sample every stage uses (`GrayImage.sample`, and loops that hold the pixel pointer
/// already, like the iris and card fits): the 8-bit image `px` (`w` x `h`, non-empty) at a sub-pixel
/// point, pixel-centre convention, clamped to the border pixel centres; NaN coordinates behave as 0.
@inlinable @inline(__always)
public func bilinear(_ px: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> Float {
    let c = BilinearCell(w, h, x, y)
    return c.interpolate(Float(px[c.i]), Float(px[c.i + c.dx]), Float(px[c.i + c.dy]), Float(px[c.i + c.dy + c.dx]))
}

/// `bilinear` of the pixels mapped through `table` (256 entries, one per code) before they are
/// interpolated: e.g. sRGB codes to linear light, where a blurred edge is symmetric.
@inlinable @inline(__always)
public func bilinear(_ px: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float,
                     through table: UnsafeBufferPointer<Float>) -> Float {
    let c = BilinearCell(w, h, x, y)
    return c.interpolate(table[Int(px[c.i])], table[Int(px[c.i + c.dx])], table[Int(px[c.i + c.dy])], table[Int(px[c.i + c.dy + c.dx])])
}

/// `bilinear` of an interleaved RGB image (`px` holds `3 * w * h` bytes): the three channels at one
/// sub-pixel point, same addressing and arithmetic as the gray form (the card's colour edge fit).
@inlinable @inline(__always)
public func bilinearRGB(_ px: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> SIMD3<Float> {
    let c = BilinearCell(w, h, x, y)
    func at(_ i: Int) -> SIMD3<Float> { SIMD3(Float(px[3 * i]), Float(px[3 * i + 1]), Float(px[3 * i + 2])) }
    return c.interpolate3(at(c.i), at(c.i + c.dx), at(c.i + c.dy), at(c.i + c.dy + c.dx))
}

/// Where a bilinear sample falls: the top-left pixel's index, the steps to its right and lower
/// neighbours (0 at the border) and the fractions between them.
@usableFromInline
struct BilinearCell {
    @usableFromInline let i: Int, dx: Int, dy: Int
    @usableFromInline let ax: Float, ay: Float

    @inlinable @inline(__always)
    init(_ w: Int, _ h: Int, _ x: Float, _ y: Float) {
        var fx = x, fy = y
        let maxX = Float(w - 1), maxY = Float(h - 1)
        if !(fx > 0) { fx = 0 } else if fx > maxX { fx = maxX }
        if !(fy > 0) { fy = 0 } else if fy > maxY { fy = maxY }
        let x0 = Int(fx), y0 = Int(fy)
        ax = fx - Float(x0); ay = fy - Float(y0)
        dx = x0 < w - 1 ? 1 : 0
        dy = y0 < h - 1 ? w : 0
        i = y0 * w + x0
    }

    @inlinable @inline(__always)
    func interpolate(_ p00: Float, _ p01: Float, _ p10: Float, _ p11: Float) -> Float {
        let top = p00 + (p01 - p00) * ax
        let bottom = p10 + (p11 - p10) * ax
        return top + (bottom - top) * ay
    }

    @inlinable @inline(__always)
    func interpolate3(_ p00: SIMD3<Float>, _ p01: SIMD3<Float>, _ p10: SIMD3<Float>, _ p11: SIMD3<Float>) -> SIMD3<Float> {
        let top = p00 + (p01 - p00) * ax
        let bottom = p10 + (p11 - p10) * ax
        return top + (bottom - top) * ay
    }
}
