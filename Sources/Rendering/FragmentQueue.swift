/// Reused storage for fragments waiting to be shaded eight at a time (`Rasterizer.rasterizeQueued`).
///
/// A fragment is queued as its triangle's slot and two perspective-weighted barycentrics, not as
/// its varyings: the pixel loop then steps three edge functions and one weight instead of twelve
/// varying lanes, and a flush rebuilds eight fragments' varyings of one triangle with two
/// multiply-adds per channel (`corners` holds each queued triangle's corner 0 and its edges to
/// corners 1 and 2). Per fragment: the weights e1 g1, e2 g2 and W = sum e_i g_i (= 1/z inside the
/// triangle; the barycentric of corner i is e_i g_i / W), the coverage, the pixel index and whether
/// it writes depth. Allocated once per renderer; not thread-safe.
struct FragmentQueue {
    /// Fragments per flush: a multiple of 8.
    static let capacity = 64
    /// Triangle slots: at most one per queued fragment, plus the triangle being covered.
    static let cornerSlots = capacity + 1
    var first = [Float](repeating: 0, count: FragmentQueue.capacity)
    var second = [Float](repeating: 0, count: FragmentQueue.capacity)
    var weights = [Float](repeating: 1, count: FragmentQueue.capacity)
    var coverages = [Float](repeating: 1, count: FragmentQueue.capacity)
    /// Pixel indices (y * width + x) as floats: exact below 2^24 pixels, and compared as float vectors.
    var pixels = [Float](repeating: 0, count: FragmentQueue.capacity)
    /// The slot in `corners` of the fragment's triangle.
    var slots = [Int32](repeating: 0, count: FragmentQueue.capacity)
    /// Whether the fragment writes depth when kept (inside the triangle, depth-writing shader); only
    /// read for shaders that may discard.
    var writesDepth = [Bool](repeating: false, count: FragmentQueue.capacity)
    /// Three per slot: the varyings at corner 0, then corner 1 minus corner 0, corner 2 minus corner 0.
    var corners = [SurfaceVarying](repeating: SurfaceVarying(toward: .zero, normal: .zero, diffuse: .zero),
                                   count: 3 * FragmentQueue.cornerSlots)
    /// Eight fragments' varyings, when a batch spans triangles and is built lane by lane.
    var mixed = [SurfaceVarying](repeating: SurfaceVarying(toward: .zero, normal: .zero, diffuse: .zero), count: 8)
    /// A batch's encoded channels, read back lane by lane when blending.
    var encoded = [Float](repeating: 0, count: 24)
}
