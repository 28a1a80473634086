import Meshes

/// A `Mesh` prepared for repeated drawing: edge adjacency for silhouette anti-aliasing, computed
/// once, and per-primitive scratch (camera-space vertices, screen triangles) reused every frame so
/// drawing does not allocate. Not thread-safe: one per rendering thread.
public final class RenderableMesh {
    public let mesh: Mesh
    let neighbours: [[SIMD3<Int32>]]
    var cameraPositions: [[SIMD3<Float>]]
    var cameraNormals: [[SIMD3<Float>]]
    var towardCamera: [[SIMD3<Float>]]
    /// Per-vertex diffuse light (`Lighting.diffuse`) for the normal and for its opposite (the back
    /// of a double-sided surface): diffuse light varies slowly, so it is interpolated, not
    /// evaluated per pixel.
    var diffuseFront: [[SIMD3<Float>]]
    var diffuseBack: [[SIMD3<Float>]]
    var facing: [[Bool]]
    var triangles: [ScreenTriangle] = []
    var sortKeys: [(Float, Int32)] = []

    public init(_ mesh: Mesh) {
        self.mesh = mesh
        var tolerance: Float = 1e-6
        if let b = mesh.bounds { tolerance = max(simdLength(b.max - b.min) * 1e-5, 1e-9) }
        neighbours = mesh.primitives.map { EdgeAdjacency.neighbours($0, weldTolerance: tolerance) }
        cameraPositions = mesh.primitives.map { [SIMD3<Float>](repeating: .zero, count: $0.positions.count) }
        cameraNormals = cameraPositions
        towardCamera = cameraPositions
        diffuseFront = cameraPositions
        diffuseBack = cameraPositions
        facing = mesh.primitives.map { [Bool](repeating: true, count: $0.triangleCount) }
    }

    public var triangleCount: Int { mesh.triangleCount }
}
