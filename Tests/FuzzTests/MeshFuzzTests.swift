import Foundation
import Imaging
import JPEGCodec
import Meshes
import PNGCodec
import Testing

/// Seeded mutations of glTF, GLB and OBJ/MTL models. A model that loads must also be safe to draw:
/// every coordinate finite and in range, every index inside its primitive, every material factor
/// in its range (the renderer once read out of bounds on a NaN colour).
struct MeshFuzzTests {
    let decoders = TextureDecoders(jpeg: TurboJPEGDecoder(), png: LibPNGDecoder())

    static func bytes(_ floats: [Float]) -> [UInt8] { floats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) } }
    static func bytes(_ shorts: [UInt16]) -> [UInt8] { shorts.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) } }

    /// A textured quad: positions, normals, UVs and indices in one buffer, a PNG image, a sampler.
    static let payload = bytes([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] as [Float]) + bytes([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1] as [Float])
        + bytes([0, 0, 1, 0, 1, 1, 0, 1] as [Float]) + bytes([0, 1, 2, 0, 2, 3] as [UInt16])
    static func document(bufferURI: String?, imageURI: String) -> String {
        let uri = bufferURI.map { #""uri": "\#($0)", "# } ?? ""
        return """
        {"asset": {"version": "2.0"},
         "buffers": [{\(uri)"byteLength": \(payload.count)}],
         "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 96, "byteStride": 12},
                         {"buffer": 0, "byteOffset": 96, "byteLength": 32},
                         {"buffer": 0, "byteOffset": 128, "byteLength": 12}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                       {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
         "images": [{"uri": "\(imageURI)"}],
         "samplers": [{"magFilter": 9729, "wrapS": 33071, "wrapT": 10497}],
         "textures": [{"sampler": 0, "source": 0}],
         "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.25, 0.5], "baseColorTexture": {"index": 0},
                        "metallicFactor": 0.1, "roughnessFactor": 0.7}, "alphaMode": "MASK", "alphaCutoff": 0.4,
                        "extensions": {"KHR_materials_transmission": {"transmissionFactor": 0.7}, "KHR_materials_ior": {"ior": 1.4}}}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0, "mode": 4}]}],
         "nodes": [{"children": [1], "translation": [0.1, 0, 0], "scale": [2, 2, 2]}, {"mesh": 0, "rotation": [0, 0, 0, 1]}],
         "scenes": [{"nodes": [0]}], "scene": 0}
        """
    }
    static let pngURI = "data:image/png;base64," + Data(FuzzSeeds.pngs[1]).base64EncodedString()
    static let gltf = document(bufferURI: "data:application/octet-stream;base64," + Data(payload).base64EncodedString(), imageURI: pngURI)

    static func glb(json: String, binary: [UInt8]) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian, Array.init) }
        var j = Array(json.utf8); while j.count % 4 != 0 { j.append(0x20) }
        var bin = binary; while bin.count % 4 != 0 { bin.append(0) }
        let total = 12 + 8 + j.count + 8 + bin.count
        return Array("glTF".utf8) + u32(2) + u32(total) + u32(j.count) + Array("JSON".utf8) + j + u32(bin.count) + Array("BIN\0".utf8) + bin
    }
    static let glbSeed = glb(json: document(bufferURI: nil, imageURI: pngURI), binary: payload)
    static let glbFields: [Int] = [8, 12, (20 + Array(document(bufferURI: nil, imageURI: pngURI).utf8).count + 3) & ~3]

    static let obj = """
    mtllib look.mtl
    o quad
    v 0 0 0
    v 1 0 0.5
    v 1 1 0
    v 0 1 -0.5
    vt 0 0
    vt 1 0
    vt 1 1
    vn 0 0 1
    usemtl shiny
    f 1/1/1 2/2/1 3/3/1
    f -4/1 -2/3 -1/2
    usemtl missing
    f 1//1 3//1 4//1 2//1
    """
    static let mtl = """
    newmtl shiny
    Kd 0.8 0.2 0.1
    d 0.5
    Ns 96
    map_Kd tex.png
    newmtl other
    Kd 1 1 1
    Tr 0.25
    """

    /// What a loaded mesh must satisfy for the renderer to draw it safely.
    static func checkDrawable(_ mesh: Mesh) {
        for p in mesh.primitives {
            #expect(p.positions.allSatisfy { abs($0.x) <= MeshLimits.maximumCoordinate && abs($0.y) <= MeshLimits.maximumCoordinate && abs($0.z) <= MeshLimits.maximumCoordinate })
            #expect(p.normals.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
            #expect(p.uvs.allSatisfy { $0.x.isFinite && $0.y.isFinite })
            #expect(p.indices.allSatisfy { Int($0) < p.positions.count })
            #expect(p.materialIndex >= 0 && p.materialIndex < mesh.materials.count)
        }
        for m in mesh.materials {
            let factors = [m.baseColor.x, m.baseColor.y, m.baseColor.z, m.baseColor.w, m.metallic, m.roughness, m.transmission]
            #expect(factors.allSatisfy { $0 >= 0 && $0 <= 1 }, "material \(m.name): \(factors)")
            #expect(m.indexOfRefraction >= 1 && m.indexOfRefraction <= 10)
            if let t = m.baseColorTexture { #expect(t >= 0 && t < mesh.textures.count) }
        }
        for t in mesh.textures { #expect(t.image.width * t.image.height <= ImageSizeLimit.maximumPixels) }
    }

    @Test("glTF: mutated JSON (numbers made extreme, lines lost, bytes flipped) loads or throws")
    func gltfText() throws {
        let scratch = try makeFuzzScratch("gltf")
        fuzz("gltf", seeds: [Array(Self.gltf.utf8)], cases: FuzzBudget.cases(0.15), scratch: scratch,
             mutate: { rng, seed in Mutations.text(String(decoding: seed, as: UTF8.self), using: &rng) }) { input in
            let path = scratch + "/model.gltf"
            FileManager.default.createFile(atPath: path, contents: Data(input))
            Self.checkDrawable(try GLTFLoader(decoders: decoders).load(path: path))
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    @Test("GLB: mutated containers (chunk lengths, binary payload, JSON) load or throw")
    func glb() throws {
        let scratch = try makeFuzzScratch("glb")
        fuzz("glb", seeds: [Self.glbSeed], cases: FuzzBudget.cases(0.1), scratch: scratch,
             mutate: { rng, seed in
                 Bool.random(using: &rng) ? Mutations.binary(seed, fields: Self.glbFields, using: &rng)
                     : Self.glb(json: String(decoding: Mutations.text(Self.document(bufferURI: nil, imageURI: Self.pngURI), using: &rng), as: UTF8.self), binary: Self.payload)
             }) { input in
            let path = scratch + "/model.glb"
            FileManager.default.createFile(atPath: path, contents: Data(input))
            Self.checkDrawable(try GLTFLoader(decoders: decoders).load(path: path))
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    @Test("OBJ/MTL: mutated models and material libraries load or throw")
    func objMTL() throws {
        let scratch = try makeFuzzScratch("obj")
        FileManager.default.createFile(atPath: scratch + "/tex.png", contents: Data(FuzzSeeds.pngs[0]))
        // The first byte says which file the mutation went to.
        fuzz("obj", seeds: [[0] + Array(Self.obj.utf8), [1] + Array(Self.mtl.utf8)], cases: FuzzBudget.cases(0.15), scratch: scratch,
             mutate: { rng, seed in [seed[0]] + Mutations.text(String(decoding: seed.dropFirst(), as: UTF8.self), using: &rng) }) { input in
            FileManager.default.createFile(atPath: scratch + "/model.obj", contents: Data(input[0] == 0 ? Array(input.dropFirst()) : Array(Self.obj.utf8)))
            FileManager.default.createFile(atPath: scratch + "/look.mtl", contents: Data(input[0] == 1 ? Array(input.dropFirst()) : Array(Self.mtl.utf8)))
            Self.checkDrawable(try OBJLoader(decoders: decoders).load(path: scratch + "/model.obj"))
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
