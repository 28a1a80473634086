/// A triangle's perspective weights as planes in screen space (Heckbert & Moreton 1991): the
/// barycentric of corner i times 1/z is e_i g_i, with g_i = k_i times the corner's 1/z, so
/// W = Σ e_i g_i (= 1/z inside the triangle) is affine in x and y. Kept around the pixel box's
/// corner (ox, oy), which keeps the constant terms small.
struct InverseDepthPlane {
    let g0: Float, g1: Float, g2: Float
    /// The box's top-left pixel centre.
    let ox: Float, oy: Float
    /// The three edge functions at (ox, oy).
    let eo0: Float, eo1: Float, eo2: Float
    /// W at (ox, oy), and its steps per pixel along x and y.
    let wO: Float, wA: Float, wB: Float

    @inline(__always)
    init(_ e: TriangleEdges, _ t: ScreenTriangle) {
        g0 = e.k0 * t.p0.z; g1 = e.k1 * t.p1.z; g2 = e.k2 * t.p2.z
        ox = Float(e.minX); oy = Float(e.minY)
        eo0 = e.a0 * ox + e.b0 * oy + e.c0; eo1 = e.a1 * ox + e.b1 * oy + e.c1; eo2 = e.a2 * ox + e.b2 * oy + e.c2
        wA = e.a0 * g0 + e.a1 * g1 + e.a2 * g2
        wB = e.b0 * g0 + e.b1 * g1 + e.b2 * g2
        wO = eo0 * g0 + eo1 * g1 + eo2 * g2
    }
}

extension Rasterizer {
    /// The shader's varyings at the corners of `t`; for a piece of a near-clipped triangle, at the
    /// piece's corners, which sit at barycentrics b_k of the source triangle.
    @inline(__always)
    static func corners<S: FragmentShader>(of t: ScreenTriangle, shader: S) -> (S.Corner, S.Corner, S.Corner) {
        let (v0, v1, v2) = shader.corners(triangle: Int(t.source), frontFacing: t.frontFacing)
        guard !(t.b0 == SIMD3<Float>(1, 0, 0) && t.b1 == SIMD3<Float>(0, 1, 0) && t.b2 == SIMD3<Float>(0, 0, 1)) else {
            return (v0, v1, v2)
        }
        return (v0 * t.b0.x + v1 * t.b0.y + v2 * t.b0.z,
                v0 * t.b1.x + v1 * t.b1.y + v2 * t.b1.z,
                v0 * t.b2.x + v1 * t.b2.y + v2 * t.b2.z)
    }
}
