import Foundation

/// Loads Wavefront OBJ with its MTL material libraries: `v`, `vt`, `vn`, polygonal `f` in all four
/// index forms (fan-triangulated, negative indices relative to the end), `usemtl`, `mtllib`.
/// MTL: `newmtl`, `Kd` (taken as sRGB and linearised to match glTF base colours), `d` / `Tr`
/// (alpha < 1 gives BLEND), `Ns` (mapped to roughness), `map_Kd` (a texture, decoded through
/// `TextureDecoders`). Texture v is flipped to glTF's top-down convention. Normals are computed
/// when the file has none. One primitive per material.
public struct OBJLoader {
    public var decoders: TextureDecoders
    /// Whether files the model names may lie outside its folder (absolute, `..`, symlinks out):
    /// off by default, see `ModelFolder`.
    public var allowsFilesOutsideFolder = false

    public init(decoders: TextureDecoders = TextureDecoders()) {
        self.decoders = decoders
    }

    public func load(path: String) throws -> Mesh {
        let bytes = try readFile(path, what: "model file")
        guard let text = String(validatingUTF8CString: bytes) else { throw MeshError(path, "OBJ file is not UTF-8 text") }
        let directory = (path as NSString).deletingLastPathComponent
        var positions: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [], normals: [SIMD3<Float>] = []
        var materials: [Material] = []
        var textures: [Texture] = []
        var materialByName: [String: Int] = [:]
        var warnings: [String] = []
        // Per material, in order of first use: the welded vertices and triangles being built.
        var builders: [OBJPrimitiveBuilder] = []
        var builderOfMaterial: [Int: Int] = [:]
        var current = -1
        var lineNumber = 0
        func fail(_ reason: String) -> MeshError { MeshError(path, "line \(lineNumber): \(reason)") }

        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            lineNumber += 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let head = parts.first else { continue }
            // Every number must be finite; coordinates also within `MeshLimits.maximumCoordinate`, so
            // that no NaN or infinity reaches the normals, the extent or the renderer.
            func number(_ i: Int) throws -> Float {
                guard let f = Float(parts[i]) else { throw fail("'\(parts[i])' is not a number") }
                guard f.isFinite else { throw fail("'\(parts[i])' is not a finite number") }
                guard abs(f) <= MeshLimits.maximumCoordinate else {
                    throw fail("'\(head)' value \(parts[i]) exceeds the limit of \(MeshLimits.maximumCoordinate) in magnitude")
                }
                return f
            }
            func numbers(_ n: Int) throws -> [Float] {
                guard parts.count >= n + 1 else { throw fail("'\(head)' needs \(n) numbers") }
                return try (1...n).map(number)
            }
            switch head {
            case "v": let f = try numbers(3); positions.append([f[0], f[1], f[2]])
            case "vt": let f = try numbers(1); uvs.append([f[0], parts.count > 2 ? try number(2) : 0])
            case "vn":
                // A zero normal has no direction: +z, as the normal generator gives degenerate vertices.
                let f = try numbers(3), n = SIMD3<Float>(f[0], f[1], f[2]), length = simdLength(n)
                normals.append(length > 0 && length.isFinite ? n / length : [0, 0, 1])
            case "mtllib":
                for name in parts.dropFirst() {
                    do {
                        let file: String
                        do { file = try ModelFolder.path(of: String(name), in: directory, allowOutside: allowsFilesOutsideFolder) } catch {
                            throw MeshError(path, "mtllib \(error)")
                        }
                        let lib = try MTLParser.parse(path: file, decoders: decoders, allowsFilesOutsideFolder: allowsFilesOutsideFolder)
                        for var m in lib.materials where materialByName[m.name] == nil {
                            if let t = m.baseColorTexture, let texture = lib.textures[t] {
                                textures.append(texture)
                                m.baseColorTexture = textures.count - 1
                            } else {
                                m.baseColorTexture = nil
                            }
                            materialByName[m.name] = materials.count
                            materials.append(m)
                        }
                        warnings += lib.warnings
                    } catch let e as MeshError {
                        warnings.append("material library: \(e.description); using a default material")
                    }
                }
            case "usemtl":
                let name = parts.dropFirst().joined(separator: " ")
                if let m = materialByName[name] { current = m } else {
                    warnings.append("line \(lineNumber): unknown material '\(name)'; using a default material")
                    materialByName[name] = materials.count
                    materials.append(Material(name: name, baseColor: [0.6, 0.6, 0.6, 1], metallic: 0, roughness: 0.5))
                    current = materials.count - 1
                }
            case "f":
                guard parts.count >= 4 else { throw fail("a face needs at least 3 vertices") }
                if current < 0 {
                    materials.append(Material(name: "default", baseColor: [0.6, 0.6, 0.6, 1], metallic: 0, roughness: 0.5))
                    current = materials.count - 1
                    materialByName["default"] = current
                }
                if builderOfMaterial[current] == nil {
                    builderOfMaterial[current] = builders.count
                    builders.append(OBJPrimitiveBuilder(materialIndex: current))
                }
                let b = builderOfMaterial[current]!
                var corner: [UInt32] = []
                for token in parts.dropFirst() {
                    let fields = token.split(separator: "/", omittingEmptySubsequences: false)
                    func resolve(_ i: Int, _ count: Int, _ what: String) throws -> Int32 {
                        guard i < fields.count, !fields[i].isEmpty else { return -1 }
                        guard let v = Int(fields[i]), v != 0 else { throw fail("bad \(what) index '\(fields[i])'") }
                        let r = v > 0 ? v - 1 : count + v
                        guard r >= 0 && r < count else { throw fail("\(what) index \(v) is out of range (\(count) defined)") }
                        return Int32(r)
                    }
                    let key = SIMD3<Int32>(try resolve(0, positions.count, "vertex"), try resolve(1, uvs.count, "texture"),
                                           try resolve(2, normals.count, "normal"))
                    guard key.x >= 0 else { throw fail("face vertex without a position index") }
                    corner.append(builders[b].vertex(key, positions: positions, uvs: uvs, normals: normals))
                }
                for i in 1..<(corner.count - 1) { builders[b].indices += [corner[0], corner[i], corner[i + 1]] }
            default:
                continue // g, o, s, l, p and others do not affect the triangles we render
            }
        }
        var primitives: [MeshPrimitive] = []
        for b in builders {
            guard !b.indices.isEmpty else { continue }
            let n = b.hasNormals ? b.normals : NormalGenerator.vertexNormals(positions: b.positions, indices: b.indices)
            primitives.append(MeshPrimitive(name: materials[b.materialIndex].name, positions: b.positions, normals: n,
                                            uvs: b.hasUVs ? b.uvs : [], indices: b.indices, materialIndex: b.materialIndex))
        }
        if primitives.isEmpty { throw MeshError(path, "OBJ file has no faces") }
        let mesh = Mesh(primitives: primitives, materials: materials, textures: textures, warnings: warnings)
        try MeshLimits.checkExtent(of: mesh, path: path)
        return mesh
    }
}

extension String {
    /// Strict UTF-8 decoding of bytes (no NUL terminator needed).
    init?(validatingUTF8CString bytes: [UInt8]) {
        guard let s = String(validating: bytes, as: UTF8.self) else { return nil }
        self = s
    }
}
