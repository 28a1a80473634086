/// Reused storage for fragments waiting to be shaded eight at a time (`Rasterizer.rasterizeQueued`):
/// per fragment the perspective-weighted varyings N (`SurfaceVarying`, stored as the rasteriser
/// has them: three 4-lane registers, so queueing costs three stores), the weight W (= 1/z; the
/// varying is N / W), the coverage, the pixel index and whether it writes depth. A flush turns each
/// eight into structure-of-arrays form (`SurfaceVarying8`). Allocated once per renderer; not
/// thread-safe.
struct FragmentQueue {
    /// Fragments per flush: a multiple of 8.
    static let capacity = 64
    var varyings = [SurfaceVarying](repeating: SurfaceVarying(toward: .zero, normal: .zero, diffuse: .zero), count: FragmentQueue.capacity)
    var weights = [Float](repeating: 1, count: FragmentQueue.capacity)
    var coverages = [Float](repeating: 1, count: FragmentQueue.capacity)
    /// Pixel indices (y * width + x) as floats: exact below 2^24 pixels, and compared as float vectors.
    var pixels = [Float](repeating: 0, count: FragmentQueue.capacity)
    /// Whether the fragment writes depth when kept (inside the triangle, depth-writing shader); only
    /// read for shaders that may discard.
    var writesDepth = [Bool](repeating: false, count: FragmentQueue.capacity)
    /// A batch's encoded channels, read back lane by lane when blending.
    var encoded = [Float](repeating: 0, count: 24)
}
