import Meshes

/// A `Mesh` prepared for repeated drawing: edge adjacency for silhouette anti-aliasing, computed
/// once, and per-primitive scratch (camera-space vertices, screen triangles) reused every frame so
/// drawing does not allocate. Not thread-safe: one per rendering thread.
public final class RenderableMesh {
    public let mesh: Mesh
    let neighbours: [[SIMD3<Int32>]]
    /// `EdgeAdjacency.contacts`: edges where parts touch, never anti-aliased.
    let contacts: [[UInt8]]
    var cameraPositions: [[SIMD3<Float>]]
    var cameraNormals: [[SIMD3<Float>]]
    var towardCamera: [[SIMD3<Float>]]
    /// Per-vertex diffuse light (`Lighting.diffuse`) for the normal and for its opposite (the back
    /// of a double-sided surface): diffuse light varies slowly, so it is interpolated, not
    /// evaluated per pixel.
    var diffuseFront: [[SIMD3<Float>]]
    var diffuseBack: [[SIMD3<Float>]]
    /// Per-vertex pixel position and 1/z (meaningful for vertices in front of the near plane).
    var screenPositions: [[SIMD3<Float>]]
    var facing: [[Bool]]
    /// Per primitive: for a closed surface wound consistently, whether its outside is the front
    /// (counter-clockwise) side — the side a camera outside it sees; nil for open surfaces.
    public let outwardWinding: [Bool?]
    var triangles: [ScreenTriangle] = []
    var sortKeys: [SortKey] = []
    var sortScratch: [SortKey] = []
    var translucentOrder: [SortKey] = []

    public init(_ mesh: Mesh) {
        self.mesh = mesh
        var tolerance: Float = 1e-6
        if let b = mesh.bounds { tolerance = max(simdLength(b.max - b.min) * 1e-5, 1e-9) }
        neighbours = mesh.primitives.map { EdgeAdjacency.neighbours($0, weldTolerance: tolerance) }
        contacts = EdgeAdjacency.contacts(mesh.primitives, weldTolerance: tolerance)
        cameraPositions = mesh.primitives.map { [SIMD3<Float>](repeating: .zero, count: $0.positions.count) }
        cameraNormals = cameraPositions
        towardCamera = cameraPositions
        diffuseFront = cameraPositions
        diffuseBack = cameraPositions
        screenPositions = cameraPositions
        facing = mesh.primitives.map { [Bool](repeating: true, count: $0.triangleCount) }
        outwardWinding = mesh.primitives.map { EdgeAdjacency.outwardWinding($0, weldTolerance: tolerance) }
    }

    /// Sorts `keys` by decreasing depth, keeping the order of equal depths (a merge sort into the
    /// reused scratch buffer: the library sort allocates its buffer every call).
    func sortFarToNear(_ keys: inout [SortKey]) {
        let n = keys.count
        guard n > 1 else { return }
        var scratch = sortScratch
        sortScratch = []
        defer { sortScratch = scratch }
        if scratch.count < n { scratch = [SortKey](repeating: SortKey(depth: 0, triangle: 0), count: n) }
        keys.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in
                var src = a.baseAddress!, dst = b.baseAddress!
                var width = 1
                while width < n {
                    var lo = 0
                    while lo < n {
                        let mid = min(lo + width, n), hi = min(lo + 2 * width, n)
                        var i = lo, j = mid, k = lo
                        while i < mid && j < hi {
                            // Take from the right run only when strictly farther: stable.
                            if src[j].depth > src[i].depth { dst[k] = src[j]; j += 1 } else { dst[k] = src[i]; i += 1 }
                            k += 1
                        }
                        while i < mid { dst[k] = src[i]; i += 1; k += 1 }
                        while j < hi { dst[k] = src[j]; j += 1; k += 1 }
                        lo = hi
                    }
                    swap(&src, &dst)
                    width *= 2
                }
                if src != a.baseAddress! { a.baseAddress!.update(from: src, count: n) }
            }
        }
    }

    public var triangleCount: Int { mesh.triangleCount }
}

/// A triangle (or primitive) index with the camera depth it is sorted by.
struct SortKey {
    var depth: Float
    var triangle: Int32
}
