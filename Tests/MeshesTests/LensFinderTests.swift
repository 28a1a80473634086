import Foundation
import Meshes
import Testing

/// Issue 23 item 1: lenses found by material, by name or by geometry, on the shared models and on
/// copies of the Khronos sunglasses whose lens materials were made plain defaults.
@Suite("Lens finding", .enabled(if: SharedModels.available, "\(SharedModels.skipMessage)"))
struct LensFinderTests {
    static let khronos = SharedModels.directory + "/khronos_sunglasses/SunglassesKhronos.glb"

    func lenses(_ path: String, named: [String] = []) throws -> LensFinder.Result {
        LensFinder.find(in: GlassesNormalizer.normalize(try SharedModels.loader().load(path: path)), named: named)
    }

    /// What each shared model's lenses are marked by (README of ../shared/data/glasses).
    @Test func sharedModelsLensesAreFoundByTheirMarking() throws {
        let expected: [String: String] = [
            "blendswap_glasses_khalid": "material: alpha 0.09 (BLEND)",
            "facefit_glasses1": "material: alpha 0.13 (BLEND)",
            "facefit_glasses2": "name: 'glass'",
            "facefit_glasses4": "material: KHR_materials_transmission 0.88",
            "khronos_sunglasses": "material: KHR_materials_transmission 1.00",
        ]
        for entry in try SharedModels.entries() where !entry.file.hasSuffix(".obj") {
            let result = try lenses(entry.file)
            print("\(entry.id): \(result.lenses.map(\.description))")
            if let want = expected[entry.id] {
                #expect(result.lenses.contains { $0.evidence.description.hasPrefix(want) }, "\(entry.id): \(result.lenses)")
            } else {
                // Pixel-art glasses (opaque on purpose), and TiimB's sunglasses: one connected surface
                // (frame and lenses moulded as one piece, one material), so no part spans an opening.
                #expect(result.lenses.isEmpty, "\(entry.id): \(result.lenses)")
            }
            // Every part found is drawn see-through.
            for f in result.lenses {
                let part = result.glasses.mesh.primitives[try #require(f.primitiveIndex)]
                #expect(part.name == f.part && result.glasses.mesh.materials[part.materialIndex].isLens, "\(entry.id) \(f.part)")
            }
        }
    }

    /// The Khronos sunglasses with both lens materials replaced by `{}` (opaque white metal) and
    /// lens parts renamed to say nothing: only the geometry is left to find them by.
    @Test func defaultMaterialLensesAreFoundByGeometryAndByName() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let anonymous = dir + "/anonymous.glb", named = dir + "/named.glb"
        try GLBRewriter.rewrite(Self.khronos, to: anonymous) { json in Self.plainLenses(&json, meshNames: ["PartA", "PartB"]) }
        try GLBRewriter.rewrite(Self.khronos, to: named) { json in Self.plainLenses(&json, meshNames: ["Lente_izq", "Verre"]) }
        let byGeometry = try lenses(anonymous)
        #expect(byGeometry.lenses.filter { $0.part.hasPrefix("Part") }.count == 2, "\(byGeometry.lenses)")
        #expect(byGeometry.lenses.allSatisfy { $0.part == "Nosepads" || $0.evidence.description.hasPrefix("geometry") })
        #expect(!byGeometry.lenses.contains { $0.part == "Frames" || $0.part.hasPrefix("Temple") })
        let byName = try lenses(named)
        #expect(byName.lenses.contains { $0.part == "Lente_izq" && $0.evidence == .name("lente") })
        #expect(byName.lenses.contains { $0.part == "Verre" && $0.evidence == .name("verre") })
        // A lens that was opaque white is now clear and see-through.
        let lens = try #require(byName.glasses.mesh.primitives.first { $0.name == "Verre" })
        let m = byName.glasses.mesh.materials[lens.materialIndex]
        #expect(m.isLens && m.alphaMode == .opaque && m.transmission == 1 && m.baseColor == [1, 1, 1, 1] && m.roughness <= 0.1)
    }

    @Test func namedPartsOverrideTheGuess() throws {
        let result = try lenses(SharedModels.directory + "/facefit_glasses2/glasses2.glb", named: ["03___Default", "nothing-here"])
        #expect(result.lenses.count == 1 && result.lenses[0].material == "03___Default" && result.lenses[0].evidence == .named("03___Default"))
        #expect(result.unmatchedNames == ["nothing-here"])
        #expect(try lenses(SharedModels.directory + "/facefit_glasses2/glasses2.glb", named: ["none"]).lenses.isEmpty)
    }

    /// Lens materials made plain (`{}`), lens meshes and their nodes renamed.
    static func plainLenses(_ json: inout [String: Any], meshNames: [String]) {
        var materials = json["materials"] as! [[String: Any]]
        for i in materials.indices where (materials[i]["name"] as? String)?.hasPrefix("lens") == true { materials[i] = [:] }
        json["materials"] = materials
        var meshes = json["meshes"] as! [[String: Any]]
        var nodes = json["nodes"] as! [[String: Any]]
        var k = 0
        for i in meshes.indices where (meshes[i]["name"] as? String)?.hasPrefix("Lenses") == true {
            meshes[i]["name"] = meshNames[k]
            for j in nodes.indices where nodes[j]["mesh"] as? Int == i { nodes[j]["name"] = meshNames[k] }
            k += 1
        }
        for j in nodes.indices where (nodes[j]["name"] as? String)?.hasPrefix("Lenses") == true { nodes[j]["name"] = "Group\(j)" }
        json["meshes"] = meshes
        json["nodes"] = nodes
        json["extensionsUsed"] = ["KHR_materials_transmission", "KHR_materials_volume"]
    }
}

struct LensNamesTests {
    @Test func wordsSplitAtCaseDigitsAndPunctuation() {
        #expect(LensNames.lensWord(in: "3_Cargobike_BoxGlass3") == "glass")
        #expect(LensNames.lensWord(in: "Sun-GlassesShape_4_0") == nil)
        #expect(LensNames.lensWord(in: "LensesExterior") == "lenses")
        #expect(LensNames.lensWord(in: "glass_frame") == nil)
        #expect(LensNames.lensWord(in: "Brillengläser") == nil) // one compound word, not a lens word by itself
        #expect(LensNames.lensWord(in: "Gläser links") == "gläser")
    }
}
