/// A triangle ready for rasterisation: vertex positions in pixels with inverse camera depth
/// (x, y, 1/z), and for each vertex its barycentric coordinates in the source triangle (the unit
/// vectors, unless near-plane clipping cut the source triangle into pieces). `source` is the
/// triangle's index in the primitive the shader reads. Bit k of `smoothEdges` marks the edge from
/// vertex k to vertex k+1 as a silhouette edge to anti-alias; `frontFacing` tells the shader which
/// side it sees.
public struct ScreenTriangle: Sendable {
    public var p0: SIMD3<Float>
    public var p1: SIMD3<Float>
    public var p2: SIMD3<Float>
    public var b0: SIMD3<Float>
    public var b1: SIMD3<Float>
    public var b2: SIMD3<Float>
    public var source: Int32
    public var smoothEdges: UInt8
    public var frontFacing: Bool

    public init(p0: SIMD3<Float>, p1: SIMD3<Float>, p2: SIMD3<Float>, source: Int32, smoothEdges: UInt8 = 0, frontFacing: Bool = true,
                b0: SIMD3<Float> = [1, 0, 0], b1: SIMD3<Float> = [0, 1, 0], b2: SIMD3<Float> = [0, 0, 1]) {
        self.p0 = p0
        self.p1 = p1
        self.p2 = p2
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.source = source
        self.smoothEdges = smoothEdges
        self.frontFacing = frontFacing
    }
}
