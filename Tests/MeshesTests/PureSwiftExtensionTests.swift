import Foundation
import Meshes
import Testing

/// Issue 23 item 3, the extensions read in pure Swift: `KHR_mesh_quantization` (integer positions
/// and texture coordinates, dequantised by a node scale) and `KHR_texture_transform`.
struct PureSwiftExtensionTests {
    static func shorts(_ v: [UInt16]) -> [UInt8] { v.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) } }

    func load(_ json: String) throws -> Mesh {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/model.gltf"))
        return try GLTFLoader().load(path: dir + "/model.gltf")
    }

    /// A quad with normalised UNSIGNED_SHORT positions (4 × VEC3 padded to 8 bytes, as the extension
    /// requires) and UNSIGNED_BYTE-normalised texture coordinates, as gltfpack writes them.
    static func quantisedQuad(material: String = "{}", required: Bool = true) -> String {
        let positions = shorts([0, 0, 0, 0, 65535, 0, 0, 0, 65535, 65535, 0, 0, 0, 65535, 0, 0])
        let uvs: [UInt8] = [0, 0, 255, 0, 255, 255, 0, 255]
        let indices = shorts([0, 1, 2, 0, 2, 3])
        let payload = positions + uvs + indices
        let ext = required ? #""extensionsUsed": ["KHR_mesh_quantization", "KHR_texture_transform"], "extensionsRequired": ["KHR_mesh_quantization"],"# : ""
        return """
        {"asset": {"version": "2.0"}, \(ext)
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(payload).base64EncodedString())", "byteLength": \(payload.count)}],
         "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 32, "byteStride": 8}, {"buffer": 0, "byteOffset": 32, "byteLength": 8},
                         {"buffer": 0, "byteOffset": 40, "byteLength": 12}],
         "accessors": [{"bufferView": 0, "componentType": 5123, "normalized": true, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC2"},
                       {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
         "materials": [\(material)],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
         "nodes": [{"mesh": 0, "scale": [0.14, 0.05, 1], "translation": [-0.07, 0, 0]}], "scenes": [{"nodes": [0]}]}
        """
    }

    @Test func quantisedPositionsAreDequantisedByTheNodeTransform() throws {
        let mesh = try load(Self.quantisedQuad())
        let box = try #require(mesh.bounds)
        #expect(simdLength(box.min - [-0.07, 0, 0]) < 1e-6 && simdLength(box.max - [0.07, 0.05, 0]) < 1e-6, "\(box)")
        #expect(mesh.primitives[0].uvs[2] == [1, 1])
        #expect(!mesh.warnings.contains { $0.contains("KHR_mesh_quantization") })
    }

    @Test func textureTransformMovesTheCoordinates() throws {
        // Scale 0.5, rotation 90°, offset (0.25, 0.5): u' = 0.5 v + 0.25, v' = -0.5 u + 0.5.
        let material = #"{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"offset": [0.25, 0.5], "rotation": 1.5707963, "scale": [0.5, 0.5]}}}}}"#
        let json = Self.quantisedQuad(material: material).replacingOccurrences(of: #""nodes":"#, with: #""images": [{"uri": "absent.png"}], "textures": [{"source": 0}], "nodes":"#)
        let mesh = try load(json)
        let uv = mesh.primitives[0].uvs
        #expect(length2(uv[0] - SIMD2<Float>(0.25, 0.5)) < 1e-6 && length2(uv[1] - SIMD2<Float>(0.25, 0)) < 1e-6 && length2(uv[3] - SIMD2<Float>(0.75, 0.5)) < 1e-6, "\(uv)")
        #expect(mesh.warnings.contains { $0.contains("absent.png") })
    }
}

extension PureSwiftExtensionTests {
    /// `KHR_materials_emissive_strength` multiplies `emissiveFactor`; without it the factor stands.
    @Test func emissiveStrengthMultipliesTheEmissiveFactor() throws {
        let strong = #"{"emissiveFactor": [0.5, 0.25, 0], "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4}}}"#
        #expect(try load(Self.quantisedQuad(material: strong)).materials[0].emissive == [2, 1, 0])
        #expect(try load(Self.quantisedQuad(material: #"{"emissiveFactor": [0.5, 0.25, 0]}"#)).materials[0].emissive == [0.5, 0.25, 0])
        #expect(try load(Self.quantisedQuad()).materials[0].emissive == .zero)
        #expect(throws: MeshError.self) { try load(Self.quantisedQuad(material: #"{"emissiveFactor": [1, 1]}"#)) }
    }
}

func length2(_ v: SIMD2<Float>) -> Float { (v * v).sum().squareRoot() }
