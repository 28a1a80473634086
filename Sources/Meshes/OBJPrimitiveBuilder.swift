/// One material's primitive while an OBJ file is read: OBJ corners name a position, a texture
/// coordinate and a normal separately, and a primitive needs one vertex per distinct triple, so
/// corners are welded through a hash of their triple.
///
/// Every new vertex is appended in place: the builder lives in an array and is mutated through
/// its subscript. Copying it out of a dictionary and back, as the loader once did, copied every
/// array on every new vertex, which made loading quadratic (30k / 60k / 120k vertices: 0.8 / 3.1 /
/// 12 s in a release build); in place it is linear.
struct OBJPrimitiveBuilder {
    let materialIndex: Int
    private var vertexOfCorner: [SIMD3<Int32>: UInt32] = [:]
    private(set) var positions: [SIMD3<Float>] = []
    private(set) var normals: [SIMD3<Float>] = []
    private(set) var uvs: [SIMD2<Float>] = []
    private(set) var hasNormals = true
    private(set) var hasUVs = true
    var indices: [UInt32] = []

    init(materialIndex: Int) { self.materialIndex = materialIndex }

    /// The vertex index of a corner `(position, uv, normal)` (0-based, -1 when absent; the position
    /// is always present), adding the vertex the first time the triple is seen. UV v is flipped to
    /// glTF's top-down convention.
    mutating func vertex(_ corner: SIMD3<Int32>, positions allPositions: [SIMD3<Float>], uvs allUVs: [SIMD2<Float>],
                         normals allNormals: [SIMD3<Float>]) -> UInt32 {
        if let existing = vertexOfCorner[corner] { return existing }
        let index = UInt32(positions.count)
        vertexOfCorner[corner] = index
        positions.append(allPositions[Int(corner.x)])
        if corner.y >= 0 { let t = allUVs[Int(corner.y)]; uvs.append([t.x, 1 - t.y]) } else { hasUVs = false; uvs.append(.zero) }
        if corner.z >= 0 { normals.append(allNormals[Int(corner.z)]) } else { hasNormals = false; normals.append(.zero) }
        return index
    }
}
