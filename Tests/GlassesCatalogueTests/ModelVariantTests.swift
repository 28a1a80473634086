import GlassesCatalogue
import Foundation
import Meshes
import Testing

/// Issue 23 item 3: an external model's `KHR_materials_variants` become its catalogue variants,
/// `id:VARIANT` selects one, and an unknown one is refused listing those that exist.
struct ModelVariantTests {
    /// One quad, grey by default, red in variant "Red" and blue in "Blue".
    static let model: String = {
        let positions: [Float] = [0, 0, 0, 0.14, 0, 0, 0.14, 0.05, 0, 0, 0.05, 0]
        let bytes: [UInt8] = positions.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) } + [0, 1, 2, 0, 2, 3]
        return """
        {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_materials_variants"],
         "extensions": {"KHR_materials_variants": {"variants": [{"name": "Red"}, {"name": "Blue"}]}},
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(bytes).base64EncodedString())", "byteLength": \(bytes.count)}],
         "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 6}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5121, "count": 6, "type": "SCALAR"}],
         "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1]}},
                       {"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}}, {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 1]}}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0,
           "extensions": {"KHR_materials_variants": {"mappings": [{"material": 1, "variants": [0]}, {"material": 2, "variants": [1]}]}}}]}],
         "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}
        """
    }()

    @Test func externalModelVariantsAreCatalogueVariants() throws {
        let dir = NSTemporaryDirectory() + "lorgnette-variants-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: dir + "/shop.gltf"))
        var cat = GlassesCatalogue(path: dir + "/catalogue.json")
        try cat.addExternal(id: "shop", name: "Shop frame", modelPath: dir + "/shop.gltf", frameWidthMM: 140, loader: MeshLoader())
        try cat.save()
        let back = try GlassesCatalogue.load(path: dir + "/catalogue.json")
        #expect(back.entries[0].variantIDs == ["Red", "Blue"])
        func colour(_ spec: String) throws -> SIMD4<Float> {
            let mesh = try back.resolve(spec, loader: MeshLoader()).mesh
            return mesh.materials[mesh.primitives[0].materialIndex].baseColor
        }
        #expect(try colour("shop") == [0.5, 0.5, 0.5, 1])
        #expect(try colour("shop:Red") == [1, 0, 0, 1])
        #expect(try colour("shop:Blue") == [0, 0, 1, 1])
        do { _ = try back.lookup("shop:Green"); Issue.record("found a variant the model lacks") } catch let e as CatalogueError {
            #expect(e.description.contains("Red, Blue"), "\(e)")
        }
    }
}
