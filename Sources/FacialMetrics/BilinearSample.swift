/// Bilinear sample of an 8-bit image with edge clamping (pixel-centre convention: pixel (i, j) is
/// the value at (i, j)).
@inline(__always) func bilinear(_ px: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> Float {
    let cx = min(max(x, 0), Float(w - 1)), cy = min(max(y, 0), Float(h - 1))
    let x0 = Int(cx), y0 = Int(cy)
    let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
    let fx = cx - Float(x0), fy = cy - Float(y0)
    let a = Float(px[y0 * w + x0]), b = Float(px[y0 * w + x1])
    let c = Float(px[y1 * w + x0]), d = Float(px[y1 * w + x1])
    let top = a + (b - a) * fx, bottom = c + (d - c) * fx
    return top + (bottom - top) * fy
}
