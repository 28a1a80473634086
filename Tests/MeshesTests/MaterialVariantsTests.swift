import Foundation
import Meshes
import Testing

/// Issue 23 item 3, `KHR_materials_variants`: a model's variants are named after loading and each
/// selects its materials; unknown names and mappings to nothing are refused with a reason.
struct MaterialVariantsTests {
    /// Two quads (frame, lens) and three frame materials: grey (default), red and blue, offered as
    /// the variants "Red" and "Blue Steel"; the lens keeps its material in both.
    static func model(mapping: String = #"[{"material": 1, "variants": [0]}, {"material": 2, "variants": [1]}]"#) -> String {
        let positions: [Float] = [0, 0, 0, 0.14, 0, 0, 0.14, 0.05, 0, 0, 0.05, 0]
        let bytes: [UInt8] = positions.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
        let payload = bytes + [0, 1, 2, 0, 2, 3]
        return """
        {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_materials_variants"],
         "extensions": {"KHR_materials_variants": {"variants": [{"name": "Red"}, {"name": "Blue Steel"}]}},
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(payload).base64EncodedString())", "byteLength": \(payload.count)}],
         "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 6}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5121, "count": 6, "type": "SCALAR"}],
         "materials": [{"name": "grey", "pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1]}},
                       {"name": "red", "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}},
                       {"name": "blue", "pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 1]}},
                       {"name": "lens", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.3]}, "alphaMode": "BLEND"}],
         "meshes": [{"name": "frame", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0,
                                    "extensions": {"KHR_materials_variants": {"mappings": \(mapping)}}}]},
                    {"name": "lens", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 3}]}],
         "nodes": [{"mesh": 0}, {"mesh": 1, "translation": [0, 0, 0.01]}], "scenes": [{"nodes": [0, 1]}]}
        """
    }

    static func load(_ json: String) throws -> Mesh {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/model.gltf"))
        return try GLTFLoader().load(path: dir + "/model.gltf")
    }

    static func frameColour(_ mesh: Mesh) -> SIMD4<Float> { mesh.materials[mesh.primitives[0].materialIndex].baseColor }

    @Test func variantsAreNamedAndEachSelectsItsMaterials() throws {
        let mesh = try Self.load(Self.model())
        #expect(mesh.variantNames == ["Red", "Blue Steel"])
        #expect(Self.frameColour(mesh) == [0.5, 0.5, 0.5, 1])
        #expect(Self.frameColour(try mesh.selectingVariant(named: "Red")) == [1, 0, 0, 1])
        let blue = try mesh.selectingVariant(named: "Blue Steel")
        #expect(Self.frameColour(blue) == [0, 0, 1, 1])
        #expect(blue.materials[blue.primitives[1].materialIndex].name == "lens")
        #expect(!mesh.warnings.contains { $0.contains("KHR_materials_variants") })
        do { _ = try mesh.selectingVariant(named: "Green"); Issue.record("selected a variant the model lacks") } catch let e as MeshVariantError {
            #expect(e.description.contains("'Green'") && e.description.contains("Red, Blue Steel"), "\(e)")
        }
    }

    @Test func mappingsToMissingMaterialsOrVariantsAreRefused() {
        for (mapping, expected) in [(#"[{"material": 9, "variants": [0]}]"#, "material 9"), (#"[{"material": 1, "variants": [5]}]"#, "variant 5")] {
            do { _ = try Self.load(Self.model(mapping: mapping)); Issue.record("loaded \(mapping)") } catch let e as MeshError {
                #expect(e.reason.contains("KHR_materials_variants") && e.reason.contains(expected), "\(e)")
            } catch { Issue.record("\(error)") }
        }
    }

    @Test func modelReferenceSplitsAVariantOffAPath() throws {
        #expect(ModelReference("a/frame.glb") == ModelReference("a/frame.glb"))
        #expect(ModelReference("a/frame.glb")?.variant == nil)
        let r = try #require(ModelReference("a/frame.glb:Blue Steel"))
        #expect(r.path == "a/frame.glb" && r.variant == "Blue Steel")
        #expect(ModelReference("round-47-21-145:gold") == nil) // a catalogue id
        #expect(ModelReference("frame.glb:") == nil)
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.model().utf8).write(to: URL(fileURLWithPath: dir + "/m.gltf"))
        #expect(Self.frameColour(try MeshLoader().load(ModelReference(dir + "/m.gltf:Red")!)) == [1, 0, 0, 1])
        #expect(throws: MeshError.self) { try MeshLoader().load(ModelReference(dir + "/m.gltf:Plaid")!) }
    }
}
