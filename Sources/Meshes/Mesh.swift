/// A triangle list with one material: positions, unit normals and optional texture coordinates,
/// one entry per vertex, and `indices` (three per triangle, counter-clockwise = front face as in
/// glTF). Coordinates are in the owning `Mesh`'s frame (node transforms already applied).
public struct MeshPrimitive: Sendable {
    public var name: String
    public var positions: [SIMD3<Float>]
    /// Unit length, same count as `positions`.
    public var normals: [SIMD3<Float>]
    /// Empty, or same count as `positions` (glTF convention: v grows downwards in the image).
    public var uvs: [SIMD2<Float>]
    public var indices: [UInt32]
    /// Index into `Mesh.materials`.
    public var materialIndex: Int
    /// `KHR_materials_variants`: index into `Mesh.variantNames` → the material this primitive takes
    /// in that variant (a variant not listed keeps `materialIndex`).
    public var variantMaterials: [Int: Int] = [:]

    public init(name: String, positions: [SIMD3<Float>], normals: [SIMD3<Float>], uvs: [SIMD2<Float>],
                indices: [UInt32], materialIndex: Int) {
        precondition(normals.count == positions.count, "one normal per vertex")
        precondition(uvs.isEmpty || uvs.count == positions.count, "no UVs or one per vertex")
        precondition(indices.count % 3 == 0, "a triangle list has 3 indices per triangle")
        self.name = name
        self.positions = positions
        self.normals = normals
        self.uvs = uvs
        self.indices = indices
        self.materialIndex = materialIndex
    }

    public var triangleCount: Int { indices.count / 3 }
}

/// A whole model, flattened: every node's primitives with their world transforms applied, the
/// materials and decoded textures they refer to, and what the loader had to skip (`warnings`,
/// e.g. an undecodable texture or a line primitive). Units are the file's own (glTF says metres,
/// but most downloaded models are unitless: see `CanonicalGlasses`).
public struct Mesh: Sendable {
    public var primitives: [MeshPrimitive]
    public var materials: [Material]
    public var textures: [Texture]
    public var warnings: [String]
    /// The model's material variants (`KHR_materials_variants`), in file order: a shop's colourways
    /// of one frame. Select one with `selectingVariant(named:)`.
    public var variantNames: [String]

    public init(primitives: [MeshPrimitive], materials: [Material], textures: [Texture] = [], warnings: [String] = [],
                variantNames: [String] = []) {
        self.primitives = primitives
        self.materials = materials
        self.textures = textures
        self.warnings = warnings
        self.variantNames = variantNames
    }

    public var triangleCount: Int { primitives.reduce(0) { $0 + $1.triangleCount } }
    public var vertexCount: Int { primitives.reduce(0) { $0 + $1.positions.count } }

    /// Axis-aligned box of all positions, or nil for an empty mesh.
    public var bounds: (min: SIMD3<Float>, max: SIMD3<Float>)? {
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        var any = false
        for p in primitives {
            for v in p.positions { lo = pointwiseMin(lo, v); hi = pointwiseMax(hi, v); any = true }
        }
        return any ? (lo, hi) : nil
    }

    /// The mesh with every position mapped by `t` and normals by its normal matrix; triangles are
    /// re-wound when `t` mirrors, so front faces stay counter-clockwise.
    public func transformed(by t: Transform3D) -> Mesh {
        var out = self
        let nm = t.normalMatrix
        let mirrored = t.determinant < 0
        for i in out.primitives.indices {
            out.primitives[i].positions = out.primitives[i].positions.map { t.apply($0) }
            out.primitives[i].normals = out.primitives[i].normals.map { simdNormalize(nm.applyLinear($0)) }
            if mirrored { out.primitives[i].indices = Mesh.rewound(out.primitives[i].indices) }
        }
        return out
    }

    static func rewound(_ indices: [UInt32]) -> [UInt32] {
        var r = indices
        var i = 0
        while i + 2 < r.count { r.swapAt(i + 1, i + 2); i += 3 }
        return r
    }
}
