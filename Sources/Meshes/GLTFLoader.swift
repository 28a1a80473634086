import Foundation

/// Loads glTF 2.0 models (Khronos glTF 2.0 specification): `.gltf` JSON with external or `data:`
/// URI buffers and images, and binary `.glb`. Reads the default scene's node hierarchy (matrix or
/// TRS transforms), indexed and non-indexed triangle lists, strips and fans, POSITION, NORMAL
/// (computed when absent) and TEXCOORD_0 in any component type the spec allows, metallic-roughness
/// materials with base-colour textures, the three alpha modes, and `KHR_materials_transmission` /
/// `KHR_materials_ior`. Refuses files it cannot render faithfully (malformed JSON, out-of-range
/// accessors, missing buffers, a required extension it does not implement) with a `MeshError`.
public struct GLTFLoader {
    /// Extensions that may be listed in `extensionsRequired` whatever decoders are injected: the
    /// ones read here, plus material extensions whose absence only changes appearance subtly
    /// (volume, iridescence, specular).
    public static let builtInExtensions: Set<String> = [
        "KHR_materials_transmission", "KHR_materials_ior", "KHR_materials_volume",
        "KHR_materials_iridescence", "KHR_materials_specular", "KHR_materials_emissive_strength",
        // Geometry and texture coordinates (pure Swift, read here): quantised attributes are any
        // component type `floats` reads; the texture transform is applied to TEXCOORD_0 on load.
        "KHR_mesh_quantization", "KHR_texture_transform",
        // Material sets chosen after loading (`Mesh.selectingVariant`); the default set needs nothing.
        "KHR_materials_variants",
    ]

    public var decoders: TextureDecoders
    /// Meshopt and Draco decompressors; without one, its extension is read only where the file
    /// carries an uncompressed fallback.
    public var geometry: GeometryDecoders
    /// Whether files the model names may lie outside its folder (absolute, `..`, symlinks out):
    /// off by default, see `ModelFolder`.
    public var allowsFilesOutsideFolder = false

    public init(decoders: TextureDecoders = TextureDecoders(), geometry: GeometryDecoders = GeometryDecoders()) {
        self.decoders = decoders
        self.geometry = geometry
    }

    /// What this loader reads: the built-in extensions and those its decoders add.
    public var supportedExtensions: Set<String> {
        GLTFLoader.builtInExtensions.union(geometry.extensions).union(decoders.extensions)
    }

    public func load(path: String) throws -> Mesh {
        let bytes = try readFile(path, what: "model file")
        let isGLB = bytes.count >= 4 && bytes[0] == 0x67 && bytes[1] == 0x6C && bytes[2] == 0x54 && bytes[3] == 0x46
        if isGLB {
            let glb: GLBContainer
            do { glb = try GLBContainer(bytes) } catch { throw MeshError(path, error.reason) }
            return try load(json: glb.json, glbBinary: glb.binary, path: path)
        }
        if path.lowercased().hasSuffix(".glb") { throw MeshError(path, "not a GLB file (no 'glTF' magic)") }
        return try load(json: bytes, glbBinary: nil, path: path)
    }

    func load(json: [UInt8], glbBinary: [UInt8]?, path: String) throws -> Mesh {
        let doc: GLTFDocument
        do { doc = try JSONDecoder().decode(GLTFDocument.self, from: Data(json)) } catch let e as DecodingError {
            let described = GLTFLoader.describe(e)
            throw MeshError(path, described.isEmpty ? GLTFJSONDiagnosis.reason(json) : "invalid glTF JSON: \(described)")
        } catch {
            throw MeshError(path, "invalid glTF JSON: \(error)")
        }
        guard doc.asset.version.hasPrefix("2.") else {
            throw MeshError(path, "glTF version \(doc.asset.version) is not supported (only 2.x)")
        }
        let supported = supportedExtensions
        for ext in doc.extensionsRequired ?? [] where !supported.contains(ext) {
            throw MeshError(path, "required extension \(ext) is not supported (the file cannot be drawn without it)")
        }
        var context = GLTFContext(doc: doc, path: path, directory: (path as NSString).deletingLastPathComponent,
                                  glbBinary: glbBinary, decoders: decoders)
        context.geometry = geometry
        context.supportedExtensions = supported
        context.allowsFilesOutsideFolder = allowsFilesOutsideFolder
        return try context.build()
    }

    static func describe(_ e: DecodingError) -> String {
        func pathString(_ c: [CodingKey]) -> String {
            c.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch e {
        case .dataCorrupted(let c) where c.codingPath.isEmpty && c.underlyingError == nil:
            return "" // no position: the caller diagnoses the bytes itself (GLTFJSONDiagnosis)
        case .dataCorrupted(let c):
            if let underlying = c.underlyingError { return "\(pathString(c.codingPath)) \(underlying.localizedDescription)" }
            return "\(pathString(c.codingPath)) \(c.debugDescription)"
        case .keyNotFound(let k, let c): return "missing member '\(k.stringValue)' at \(pathString(c.codingPath))"
        case .typeMismatch(_, let c): return "wrong type at \(pathString(c.codingPath)): \(c.debugDescription)"
        case .valueNotFound(_, let c): return "null value at \(pathString(c.codingPath))"
        @unknown default: return "\(e)"
        }
    }
}

func readFile(_ path: String, what: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        if FileManager.default.fileExists(atPath: path) { throw MeshError(path, "cannot read \(what)") }
        throw MeshError(path, "\(what) not found")
    }
    return [UInt8](data)
}

/// State of one load: resolved buffers and the mesh being assembled.
struct GLTFContext {
    let doc: GLTFDocument
    let path: String
    let directory: String
    let glbBinary: [UInt8]?
    let decoders: TextureDecoders
    var geometry = GeometryDecoders()
    var supportedExtensions = GLTFLoader.builtInExtensions
    var allowsFilesOutsideFolder = false
    var buffers: [Int: [UInt8]] = [:]
    /// Decompressed `EXT_meshopt_compression` bufferViews, by bufferView index.
    var decodedViews: [Int: [UInt8]] = [:]
    var warnings: [String] = []
    var restPoseCache: [Transform3D]?
    /// Per material index: its base-colour texture's `KHR_texture_transform`, applied to the UVs of
    /// the primitives drawn with it.
    var uvTransforms: [Int: UVTransform] = [:]

    init(doc: GLTFDocument, path: String, directory: String, glbBinary: [UInt8]?, decoders: TextureDecoders) {
        self.doc = doc
        self.path = path
        self.directory = directory
        self.glbBinary = glbBinary
        self.decoders = decoders
    }

    func fail(_ reason: String) -> MeshError { MeshError(path, reason) }

    mutating func build() throws -> Mesh {
        noteIgnoredFeatures()
        let (textures, textureMap) = try loadTextures()
        var materials = try (doc.materials ?? []).enumerated().map { i, m in try material(m, index: i, textureMap: textureMap) }
        for (i, m) in (doc.materials ?? []).enumerated() {
            if let t = m.pbrMetallicRoughness?.baseColorTexture?.extensions?.KHR_texture_transform { uvTransforms[i] = try UVTransform(t, material: i, path: path) }
        }
        let defaultMaterial = materials.count
        materials.append(Material(name: "default", baseColor: [1, 1, 1, 1], metallic: 0, roughness: 0.5))
        var primitives: [MeshPrimitive] = []
        let nodes = doc.nodes ?? []
        var roots: [Int]
        if let scenes = doc.scenes, !scenes.isEmpty {
            let s = doc.scene ?? 0
            guard s >= 0 && s < scenes.count else { throw fail("scene \(s) does not exist (\(scenes.count) scenes)") }
            roots = scenes[s].nodes ?? []
        } else {
            var isChild = Set<Int>()
            for n in nodes { for c in n.children ?? [] { isChild.insert(c) } }
            roots = nodes.indices.filter { !isChild.contains($0) }
        }
        // Depth-first over the hierarchy; a node seen twice on one path means a cycle.
        var stack: [(node: Int, parent: Transform3D, depth: Int)] = roots.reversed().map { ($0, .identity, 0) }
        var visits = 0
        while let (n, parent, depth) = stack.popLast() {
            guard n >= 0 && n < nodes.count else { throw fail("node \(n) does not exist (\(nodes.count) nodes)") }
            visits += 1
            guard depth <= 1000 && visits <= 1_000_000 else { throw fail("node hierarchy has a cycle") }
            let node = nodes[n]
            let world = parent * (try localTransform(node, index: n))
            if let m = node.mesh {
                guard let meshes = doc.meshes, m >= 0 && m < meshes.count else { throw fail("node \(n) refers to missing mesh \(m)") }
                for (pi, p) in meshes[m].primitives.enumerated() {
                    let name = (node.name ?? meshes[m].name ?? "mesh\(m)") + (meshes[m].primitives.count > 1 ? "#\(pi)" : "")
                    if let prim = try primitive(p, name: name, world: world, skin: node.skin, defaultMaterial: defaultMaterial,
                                                materialCount: materials.count - 1) {
                        primitives.append(prim)
                    }
                }
            }
            for c in (node.children ?? []).reversed() { stack.append((c, world, depth + 1)) }
        }
        if primitives.isEmpty { throw fail("model has no triangles") }
        primitives = droppingDuplicates(primitives)
        if !primitives.contains(where: { $0.materialIndex == defaultMaterial }) { materials.removeLast() }
        let mesh = Mesh(primitives: primitives, materials: materials, textures: textures, warnings: warnings,
                        variantNames: variantNames)
        try MeshLimits.checkExtent(of: mesh, path: path)
        return mesh
    }

    /// Drops a primitive identical to an earlier one (same material, vertices and triangles), as
    /// exporters write when one mesh sits under two instancing nodes with the same transform: drawn
    /// twice, a translucent lens would darken twice, and the duplicate costs a second transform.
    mutating func droppingDuplicates(_ primitives: [MeshPrimitive]) -> [MeshPrimitive] {
        var kept: [MeshPrimitive] = []
        var dropped = 0
        for p in primitives {
            if kept.contains(where: { $0.materialIndex == p.materialIndex && $0.indices.count == p.indices.count
                && $0.positions.count == p.positions.count && $0.positions == p.positions && $0.indices == p.indices }) {
                dropped += 1
            } else {
                kept.append(p)
            }
        }
        if dropped > 0 { warnings.append("dropped \(dropped) duplicate primitive\(dropped == 1 ? "" : "s") (the same triangles placed twice)") }
        return kept
    }

    func localTransform(_ node: GLTFDocument.Node, index: Int) throws -> Transform3D {
        if let m = node.matrix {
            guard m.count == 16 else { throw fail("node \(index) matrix has \(m.count) numbers, not 16") }
            return Transform3D(columnMajor: m)
        }
        var t = SIMD3<Float>.zero, s = SIMD3<Float>(1, 1, 1), r = SIMD4<Float>(0, 0, 0, 1)
        if let v = node.translation { guard v.count == 3 else { throw fail("node \(index) translation needs 3 numbers") }; t = [v[0], v[1], v[2]] }
        if let v = node.scale { guard v.count == 3 else { throw fail("node \(index) scale needs 3 numbers") }; s = [v[0], v[1], v[2]] }
        if let v = node.rotation { guard v.count == 4 else { throw fail("node \(index) rotation needs 4 numbers") }; r = [v[0], v[1], v[2], v[3]] }
        return Transform3D(translation: t, rotation: r, scale: s)
    }

    // MARK: Buffers and accessors

    mutating func buffer(_ i: Int) throws -> [UInt8] {
        if let b = buffers[i] { return b }
        guard let list = doc.buffers, i >= 0 && i < list.count else { throw fail("buffer \(i) does not exist") }
        let declared = list[i]
        var bytes: [UInt8]
        if let uri = declared.uri {
            bytes = try resolve(uri: uri, what: "buffer \(i)")
        } else if declared.extensions?.EXT_meshopt_compression?.fallback == true {
            // Only compressed bufferViews point here, so only a loader without the decoder gets here.
            throw fail("buffer \(i) is an EXT_meshopt_compression fallback without data: the model needs the meshopt decoder")
        } else {
            guard let bin = glbBinary else { throw fail("buffer \(i) has no uri and there is no GLB binary chunk") }
            bytes = bin
        }
        guard declared.byteLength >= 0 else { throw fail("buffer \(i) has a negative byteLength \(declared.byteLength)") }
        guard bytes.count >= declared.byteLength else {
            throw fail("buffer \(i) has \(bytes.count) bytes, fewer than its byteLength \(declared.byteLength)")
        }
        buffers[i] = bytes
        return bytes
    }

    /// Bytes of a `data:` URI or of a file relative to the model.
    func resolve(uri: String, what: String) throws -> [UInt8] {
        if uri.hasPrefix("data:") {
            guard let comma = uri.firstIndex(of: ",") else { throw fail("\(what): malformed data URI") }
            let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
            guard header.hasSuffix(";base64") else { throw fail("\(what): data URI is not base64") }
            guard let data = Data(base64Encoded: String(uri[uri.index(after: comma)...])) else {
                throw fail("\(what): data URI has invalid base64")
            }
            return [UInt8](data)
        }
        let relative = uri.removingPercentEncoding ?? uri
        let file: String
        do { file = try ModelFolder.path(of: relative, in: directory, allowOutside: allowsFilesOutsideFolder) } catch {
            throw fail("\(what) uri \(error)")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw fail("\(what) file '\(relative)' not found")
        }
        return [UInt8](data)
    }

    /// The bytes of a buffer view, range-checked against its buffer.
    mutating func bufferView(_ v: Int) throws -> (bytes: [UInt8], offset: Int, length: Int, stride: Int?) {
        guard let views = doc.bufferViews, v >= 0 && v < views.count else { throw fail("bufferView \(v) does not exist") }
        let view = views[v]
        if let stride = view.byteStride, !(1...MeshLimits.maximumByteStride).contains(stride) {
            throw fail("bufferView \(v) byteStride \(stride) is outside 1...\(MeshLimits.maximumByteStride)")
        }
        if let compressed = view.extensions?.EXT_meshopt_compression, let decoder = geometry.meshopt {
            let bytes = try meshoptView(v, view: view, compressed, decoder: decoder)
            return (bytes, 0, bytes.count, view.byteStride)
        }
        let b = try buffer(view.buffer)
        let offset = view.byteOffset ?? 0
        // Compared as `length <= count - offset`, never `offset + length`, which overflows near Int.max.
        guard offset >= 0, view.byteLength >= 0, offset <= b.count, view.byteLength <= b.count - offset else {
            throw fail("bufferView \(v) (byteOffset \(offset), byteLength \(view.byteLength)) is out of range of buffer \(view.buffer) (\(b.count) bytes)")
        }
        return (b, offset, view.byteLength, view.byteStride)
    }

    static func componentCount(_ type: String) -> Int? {
        switch type {
        case "SCALAR": return 1
        case "VEC2": return 2
        case "VEC3": return 3
        case "VEC4": return 4
        case "MAT2": return 4
        case "MAT3": return 9
        case "MAT4": return 16
        default: return nil
        }
    }

    static func componentSize(_ componentType: Int) -> Int? {
        switch componentType {
        case 5120, 5121: return 1
        case 5122, 5123: return 2
        case 5125, 5126: return 4
        default: return nil
        }
    }

    /// Refuses an accessor count over the limits before anything is allocated for it.
    func checkCount(_ acc: GLTFDocument.Accessor, _ a: Int, name: String) throws {
        guard acc.count >= 0 else { throw fail("\(name): accessor \(a) has a negative count \(acc.count)") }
        let limit = acc.bufferView == nil ? MeshLimits.maximumZeroFilledElements : MeshLimits.maximumElements
        guard acc.count <= limit else {
            throw fail("\(name): accessor \(a) count \(acc.count) exceeds the limit of \(limit) elements" + (acc.bufferView == nil ? " for an accessor without a bufferView" : ""))
        }
    }

    /// Checks that `count` elements of `elementSize` bytes, `stride` apart from `byteOffset`, lie
    /// inside the bufferView. The count and stride are bounded first, so the end cannot overflow.
    func checkSpan(_ acc: GLTFDocument.Accessor, _ a: Int, viewIndex: Int, viewLength: Int, elementSize: Int, stride: Int,
                   name: String) throws {
        let start = acc.byteOffset ?? 0
        guard start >= 0, start <= viewLength else {
            throw fail("\(name): accessor \(a) byteOffset \(start) is outside bufferView \(viewIndex) (\(viewLength) bytes)")
        }
        guard acc.count > 0 else { return }
        let last = (acc.count - 1).multipliedReportingOverflow(by: stride)
        let end = last.partialValue.addingReportingOverflow(elementSize)
        guard !last.overflow, !end.overflow, end.partialValue <= viewLength - start else {
            throw fail("\(name): accessor \(a) needs \(acc.count) elements of \(elementSize) bytes every \(stride) from byte \(start), more than bufferView \(viewIndex) holds (\(viewLength) bytes; out of range)")
        }
    }

    /// All elements of an accessor as floats (`count * components`), applying `normalized` as the
    /// spec defines it. A missing bufferView means all zeros.
    mutating func floats(_ a: Int, expecting components: Int, name: String) throws -> [Float] {
        guard let accessors = doc.accessors, a >= 0 && a < accessors.count else { throw fail("\(name): accessor \(a) does not exist") }
        let acc = accessors[a]
        guard acc.sparse == nil else { throw fail("\(name): sparse accessor \(a) is not supported") }
        guard let n = GLTFContext.componentCount(acc.type), n == components else {
            throw fail("\(name): accessor \(a) has type \(acc.type), expected \(components) components")
        }
        guard let size = GLTFContext.componentSize(acc.componentType) else {
            throw fail("\(name): accessor \(a) has unknown componentType \(acc.componentType)")
        }
        try checkCount(acc, a, name: name)
        guard let viewIndex = acc.bufferView else { return [Float](repeating: 0, count: acc.count * n) }
        let view = try bufferView(viewIndex)
        let elementSize = n * size
        let stride = view.stride ?? elementSize
        let start = acc.byteOffset ?? 0
        guard stride >= elementSize else { throw fail("\(name): accessor \(a) byteStride \(stride) is smaller than its element (\(elementSize) bytes)") }
        try checkSpan(acc, a, viewIndex: viewIndex, viewLength: view.length, elementSize: elementSize, stride: stride, name: name)
        let normalized = acc.normalized ?? false
        let type = acc.componentType
        var out = [Float](repeating: 0, count: acc.count * n)
        view.bytes.withUnsafeBytes { raw in
            let base = view.offset + start
            for e in 0..<acc.count {
                let o = base + e * stride
                for c in 0..<n {
                    let p = o + c * size
                    let v: Float
                    switch type {
                    case 5126: v = Float(bitPattern: raw.loadUnaligned(fromByteOffset: p, as: UInt32.self).littleEndian)
                    case 5121: let x = raw[p]; v = normalized ? Float(x) / 255 : Float(x)
                    case 5120: let x = Int8(bitPattern: raw[p]); v = normalized ? max(Float(x) / 127, -1) : Float(x)
                    case 5123: let x = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: UInt16.self)); v = normalized ? Float(x) / 65535 : Float(x)
                    case 5122: let x = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: Int16.self)); v = normalized ? max(Float(x) / 32767, -1) : Float(x)
                    default: let x = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: UInt32.self)); v = Float(x)
                    }
                    out[e * n + c] = v
                }
            }
        }
        return out
    }

    /// Index accessor contents (unsigned byte, short or int scalars), each checked against `vertexCount`.
    mutating func indices(_ a: Int, vertexCount: Int, name: String) throws -> [UInt32] {
        guard let accessors = doc.accessors, a >= 0 && a < accessors.count else { throw fail("\(name): index accessor \(a) does not exist") }
        let acc = accessors[a]
        guard acc.type == "SCALAR", [5121, 5123, 5125].contains(acc.componentType) else {
            throw fail("\(name): index accessor \(a) must be an unsigned SCALAR (is \(acc.type)/\(acc.componentType))")
        }
        guard acc.sparse == nil else { throw fail("\(name): sparse accessor \(a) is not supported") }
        guard let viewIndex = acc.bufferView else { throw fail("\(name): index accessor \(a) has no bufferView") }
        try checkCount(acc, a, name: name)
        let view = try bufferView(viewIndex)
        let size = GLTFContext.componentSize(acc.componentType)!
        let stride = view.stride ?? size
        let start = acc.byteOffset ?? 0
        guard stride >= size else { throw fail("\(name): index accessor \(a) byteStride \(stride) is smaller than its element (\(size) bytes)") }
        try checkSpan(acc, a, viewIndex: viewIndex, viewLength: view.length, elementSize: size, stride: stride, name: name)
        var out = [UInt32](repeating: 0, count: acc.count)
        var bad: UInt32? = nil
        view.bytes.withUnsafeBytes { raw in
            let base = view.offset + start
            for e in 0..<acc.count {
                let p = base + e * stride
                let v: UInt32
                switch size {
                case 1: v = UInt32(raw[p])
                case 2: v = UInt32(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
                default: v = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                }
                if Int(v) >= vertexCount && bad == nil { bad = v }
                out[e] = v
            }
        }
        if let bad { throw fail("\(name): index \(bad) is out of range (\(vertexCount) vertices)") }
        return out
    }

    // MARK: Primitives

    mutating func primitive(_ p: GLTFDocument.Primitive, name: String, world: Transform3D, skin: Int?,
                            defaultMaterial: Int, materialCount: Int) throws -> MeshPrimitive? {
        var mode = p.mode ?? 4
        guard (4...6).contains(mode) else {
            warnings.append("\(name): skipped a primitive of mode \(mode) (points or lines)")
            return nil
        }
        guard let posAccessor = p.attributes["POSITION"] else { throw fail("\(name): primitive has no POSITION attribute") }
        // A Draco stream replaces the accessors it names and the indices (decoded as a triangle list).
        let draco = try dracoPrimitive(p, name: name)
        if draco != nil { mode = 4 }
        let pos: [Float]
        if let decoded = draco?.values[posAccessor] { pos = decoded } else { pos = try floats(posAccessor, expecting: 3, name: name) }
        let count = pos.count / 3
        // A skinned mesh is placed by its joints (bind pose), one transform per vertex; others by the node.
        let perVertex = try skin.map { try bindPoseTransforms(skin: $0, primitive: p, vertexCount: count, fallback: world, name: name) }
        func placement(_ v: Int) -> Transform3D { perVertex?[v] ?? world }
        var positions = (0..<count).map { placement($0).apply(SIMD3<Float>(pos[3 * $0], pos[3 * $0 + 1], pos[3 * $0 + 2])) }
        for v in positions where !MeshLimits.isInRange(v) {
            throw fail("\(name): POSITION \(v) (after node transforms) is not finite or exceeds the limit of \(MeshLimits.maximumCoordinate) in magnitude")
        }
        var raw: [UInt32]
        if let decoded = draco?.indices { raw = decoded } else if let ia = p.indices { raw = try indices(ia, vertexCount: count, name: name) } else { raw = (0..<UInt32(count)).map { $0 } }
        var tris = GLTFContext.triangleList(raw, mode: mode)
        if (perVertex?.first ?? world).determinant < 0 { tris = Mesh.rewound(tris) }
        var normals: [SIMD3<Float>]
        if let na = p.attributes["NORMAL"] {
            let n: [Float]
            if let decoded = draco?.values[na] { n = decoded } else { n = try floats(na, expecting: 3, name: name) }
            guard n.count == pos.count else { throw fail("\(name): NORMAL count differs from POSITION count") }
            let nm = world.normalMatrix
            normals = (0..<count).map {
                let m = perVertex == nil ? nm : placement($0).normalMatrix
                return simdNormalize(m.applyLinear(SIMD3<Float>(n[3 * $0], n[3 * $0 + 1], n[3 * $0 + 2])))
            }
            for i in normals.indices where !(simdLength(normals[i]) > 0.5) { normals[i] = [0, 0, 1] }
        } else {
            normals = NormalGenerator.vertexNormals(positions: positions, indices: tris)
        }
        var uvs: [SIMD2<Float>] = []
        if let ta = p.attributes["TEXCOORD_0"] {
            let t: [Float]
            if let decoded = draco?.values[ta] { t = decoded } else { t = try floats(ta, expecting: 2, name: name) }
            guard t.count == 2 * count else { throw fail("\(name): TEXCOORD_0 count differs from POSITION count") }
            if let bad = t.first(where: { !$0.isFinite }) { throw fail("\(name): TEXCOORD_0 holds a non-finite value (\(bad))") }
            uvs = (0..<count).map { SIMD2<Float>(t[2 * $0], t[2 * $0 + 1]) }
        }
        var material = defaultMaterial
        if let m = p.material {
            guard m >= 0 && m < materialCount else { throw fail("\(name): material \(m) does not exist") }
            material = m
        }
        if let transform = uvTransforms[material] { uvs = uvs.map(transform.apply) }
        if positions.isEmpty { positions = [] }
        var primitive = MeshPrimitive(name: name, positions: positions, normals: normals, uvs: uvs, indices: tris, materialIndex: material)
        primitive.variantMaterials = try variantMaterials(p, name: name, materialCount: materialCount)
        // A variant's material may carry a texture transform of its own; variants share the default's UVs.
        return primitive
    }

    /// Triangle list from a triangle list (4), strip (5) or fan (6), dropping degenerate strip joins.
    static func triangleList(_ idx: [UInt32], mode: Int) -> [UInt32] {
        switch mode {
        case 5:
            var out: [UInt32] = []
            if idx.count >= 3 {
                for i in 0..<(idx.count - 2) {
                    let (a, b, c) = i % 2 == 0 ? (idx[i], idx[i + 1], idx[i + 2]) : (idx[i + 1], idx[i], idx[i + 2])
                    if a != b && b != c && a != c { out += [a, b, c] }
                }
            }
            return out
        case 6:
            var out: [UInt32] = []
            if idx.count >= 3 { for i in 1..<(idx.count - 1) { out += [idx[0], idx[i], idx[i + 1]] } }
            return out
        default:
            return Array(idx.prefix(idx.count - idx.count % 3))
        }
    }

    // MARK: Materials and textures

    func material(_ m: GLTFDocument.Material, index: Int, textureMap: [Int: Int]) throws -> Material {
        let pbr = m.pbrMetallicRoughness
        var color = SIMD4<Float>(1, 1, 1, 1)
        if let f = pbr?.baseColorFactor {
            guard f.count == 4 else { throw fail("material \(index): baseColorFactor needs 4 numbers") }
            color = [f[0], f[1], f[2], f[3]]
        }
        let alpha: Material.AlphaMode
        switch m.alphaMode ?? "OPAQUE" {
        case "OPAQUE": alpha = .opaque
        case "MASK": alpha = .mask(cutoff: m.alphaCutoff ?? 0.5)
        case "BLEND": alpha = .blend
        case let other: throw fail("material \(index): unknown alphaMode \(other)")
        }
        var texture: Int? = nil
        if let t = pbr?.baseColorTexture {
            if (t.extensions?.KHR_texture_transform?.texCoord ?? t.texCoord ?? 0) != 0 {
                // Only TEXCOORD_0 is read; a texture on another set would be mapped wrongly.
            } else {
                texture = textureMap[t.index]
            }
        }
        let ext = m.extensions
        var emissive = SIMD3<Float>.zero
        if let e = m.emissiveFactor {
            guard e.count == 3 else { throw fail("material \(index): emissiveFactor needs 3 numbers") }
            emissive = SIMD3(e[0], e[1], e[2]) * (ext?.KHR_materials_emissive_strength?.emissiveStrength ?? 1)
        }
        return Material(name: m.name ?? "material\(index)", baseColor: color, baseColorTexture: texture,
                        metallic: pbr?.metallicFactor ?? 1, roughness: pbr?.roughnessFactor ?? 1, alphaMode: alpha,
                        doubleSided: m.doubleSided ?? false,
                        transmission: ext?.KHR_materials_transmission.map { $0.transmissionFactor ?? 0 } ?? 0,
                        indexOfRefraction: ext?.KHR_materials_ior?.ior ?? 1.5, emissive: emissive).clampedToValidRanges()
    }

    /// Notes what the file uses that is not drawn: extensions it does not require (the spec lets a
    /// viewer ignore those, and three.js does) and animations (the model is shown in its rest pose).
    mutating func noteIgnoredFeatures() {
        let required = Set(doc.extensionsRequired ?? [])
        for ext in doc.extensionsUsed ?? [] where !supportedExtensions.contains(ext) && !required.contains(ext) {
            warnings.append("extension \(ext) is not supported; ignored (the file does not require it)")
        }
        if let n = doc.animations?.count, n > 0 {
            warnings.append("\(n) animation\(n == 1 ? "" : "s") ignored; drawn in the rest pose")
        }
    }

    /// Decodes the images that materials use as base colour; returns the textures and a map from
    /// glTF texture index to index in the result.
    mutating func loadTextures() throws -> ([Texture], [Int: Int]) {
        var used = Set<Int>()
        for m in doc.materials ?? [] {
            if let t = m.pbrMetallicRoughness?.baseColorTexture, (t.texCoord ?? 0) == 0 { used.insert(t.index) }
        }
        var out: [Texture] = []
        var map: [Int: Int] = [:]
        var decodedImages: [Int: Int] = [:]
        for ti in used.sorted() {
            guard let textures = doc.textures, ti >= 0 && ti < textures.count else { throw fail("texture \(ti) does not exist") }
            let tex = textures[ti]
            // EXT_texture_webp names the image to prefer when WebP can be decoded; `source` is the fallback.
            var candidates: [(source: Int, isWebP: Bool)] = []
            if decoders.webp != nil, let webp = tex.extensions?.EXT_texture_webp?.source { candidates.append((webp, true)) }
            if let core = tex.source { candidates.append((core, false)) }
            guard !candidates.isEmpty else {
                let webpOnly = tex.extensions?.EXT_texture_webp != nil
                warnings.append("texture \(ti) has " + (webpOnly ? "only an EXT_texture_webp image and no WebP decoder" : "no image source") + "; using base colour")
                continue
            }
            for c in candidates {
                if try loadTexture(ti, tex, source: c.source, isWebP: c.isWebP, into: &out, map: &map, decoded: &decodedImages) { break }
            }
        }
        return (out, map)
    }

    /// Decodes image `source` as texture `ti`; false (with a warning) when it cannot be read, so
    /// the caller tries the texture's next source or keeps the base colour.
    mutating func loadTexture(_ ti: Int, _ tex: GLTFDocument.Texture, source: Int, isWebP: Bool, into out: inout [Texture],
                              map: inout [Int: Int], decoded decodedImages: inout [Int: Int]) throws -> Bool {
        let label = isWebP ? "EXT_texture_webp image \(source)" : "image \(source)"
        guard let images = doc.images, source >= 0 && source < images.count else { throw fail("texture \(ti) refers to missing image \(source)") }
        var sampler = GLTFDocument.Sampler()
        if let s = tex.sampler {
            guard let samplers = doc.samplers, s >= 0 && s < samplers.count else { throw fail("texture \(ti) refers to missing sampler \(s)") }
            sampler = samplers[s]
        }
        if let existing = decodedImages[source], out[existing].nearest == (sampler.magFilter == 9728) {
            map[ti] = existing
            return true
        }
        let image = images[source]
        var bytes: [UInt8] = []
        // A texture that cannot be read costs the model its pattern, not its shape: viewers
        // (three.js, Blender) draw it with the base colour and a warning, and so does this loader.
        do {
            if let v = image.bufferView {
                let view = try bufferView(v)
                bytes = Array(view.bytes[view.offset..<view.offset + view.length])
            } else if let uri = image.uri {
                bytes = try resolve(uri: uri, what: "image \(source)")
            } else {
                throw fail("image \(source) has neither uri nor bufferView")
            }
        } catch let e as MeshError {
            warnings.append("\(e.reason); using the base colour instead")
            return false
        }
        do {
            let rgba = try decoders.decode(bytes)
            guard rgba.width > 0 && rgba.height > 0 else { throw TextureDecodingError("empty image") }
            func wrap(_ code: Int?) -> Texture.Wrap {
                switch code { case 33071: return .clampToEdge; case 33648: return .mirroredRepeat; default: return .repeating }
            }
            out.append(Texture(image: rgba, wrapU: wrap(sampler.wrapS), wrapV: wrap(sampler.wrapT), nearest: sampler.magFilter == 9728))
            decodedImages[source] = out.count - 1
            map[ti] = out.count - 1
            return true
        } catch {
            warnings.append("\(label): \(error); using " + (isWebP && tex.source != nil ? "the texture's fallback source" : "base colour"))
            return false
        }
    }
}
