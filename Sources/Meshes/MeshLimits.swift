/// The bounds a model file must keep to be loaded, checked by the loaders before they allocate
/// or hand numbers on: a forged count, offset or coordinate is refused with a `MeshError` naming
/// the file, the field and the limit, instead of reaching the renderer as an out-of-bounds access,
/// an allocation of gigabytes or a NaN.
public enum MeshLimits {
    /// Largest magnitude of a vertex coordinate, in the file's units after node transforms. Glasses
    /// are 0.15 m wide: 1e8 leaves room for any unit down to nanometres, and keeps the products the
    /// normal generator and the renderer form (squares summed over millions of triangles) far from
    /// Float's 3.4e38.
    public static let maximumCoordinate: Float = 1e8

    /// Largest element count of one glTF accessor, so of vertices or indices in one primitive:
    /// 2^24 (16.7 M). A 2-million-triangle GLB has 6 M indices; a count above this in a small file
    /// is a forgery, and refusing it bounds what one accessor may allocate (16.7 M x 16 floats).
    public static let maximumElements = 1 << 24

    /// An accessor without a bufferView is all zeros (the base of a sparse accessor, which the
    /// loader does not read), so it carries no geometry: more than 2^16 of them is refused rather
    /// than allocated from a 184-byte file.
    public static let maximumZeroFilledElements = 1 << 16

    /// Largest decompressed bufferView (meshopt): 128 MiB, the largest accessor (2^24 elements) of
    /// 8-byte quantised vertices. Checked before the output is allocated, since a compressed view
    /// of a few bytes may claim any count.
    public static let maximumDecodedViewBytes = 1 << 27

    /// glTF 2.0: `bufferView.byteStride` is at most 252 bytes.
    public static let maximumByteStride = 252

    /// Whether every coordinate of `v` is finite and within `maximumCoordinate`.
    static func isInRange(_ v: SIMD3<Float>) -> Bool {
        let m = maximumCoordinate
        return abs(v.x) <= m && abs(v.y) <= m && abs(v.z) <= m  // false for NaN
    }

    /// Refuses a model the try-on cannot size: one whose vertices have no horizontal extent (all on
    /// one point or one vertical line: "frame width 0.0 mm"), or whose extent is not finite.
    static func checkExtent(of mesh: Mesh, path: String) throws {
        guard let box = mesh.bounds else { throw MeshError(path, "model has no vertices") }
        let extent = box.max - box.min
        guard extent.x.isFinite, extent.y.isFinite, extent.z.isFinite else {
            throw MeshError(path, "model extent \(extent.x) x \(extent.y) x \(extent.z) is not finite")
        }
        guard extent.x > 0 || extent.z > 0 else {
            throw MeshError(path, "model has zero extent across (x and z both 0): it has no width to fit to a face")
        }
    }
}
