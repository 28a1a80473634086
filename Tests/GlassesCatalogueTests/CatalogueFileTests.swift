import Foundation
import GlassesCatalogue
import Meshes
import Testing

struct CatalogueFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "lorgnette-catalogue-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The committed catalogue lists every standard frame, and each mesh loads with real size.
    @Test func committedCatalogueLoadsEveryFrame() throws {
        let cat = try GlassesCatalogue.load(path: Self.repository.appendingPathComponent(GlassesCatalogue.defaultPath).path)
        #expect(cat.entries.filter { !$0.external }.count == GlassesCatalogue.standardFrames.count)
        for entry in cat.entries where !entry.external {
            let size = try #require(entry.size.flatMap(GlassesSize.init(code:)))
            let (mesh, width) = try cat.resolve(entry.id, loader: MeshLoader())
            #expect(width == nil)
            let canonical = GlassesNormalizer.normalize(mesh)
            #expect(canonical.scale == .metric, "\(entry.id)")
            let expected = 2 * size.lensWidth + size.bridge
            #expect(canonical.regions.frameWidth > expected + 4 && canonical.regions.frameWidth < expected + 22, "\(entry.id): \(canonical.regions.frameWidth)")
            #expect(mesh.materials.contains { $0.isLens }, "variant applied: lens is transmissive")
        }
    }

    @Test func generateSaveLoadAddAndResolve() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var cat = GlassesCatalogue(path: dir + "/catalogue.json")
        let ids = try cat.generateStandardFrames()
        try cat.save()
        #expect(ids.count == 8 && FileManager.default.fileExists(atPath: dir + "/" + ids[0] + ".obj"))
        // An external model by path (a generated OBJ stands in for a downloaded one).
        try cat.addExternal(id: "mine", name: "My frame", modelPath: dir + "/" + ids[2] + ".obj", frameWidthMM: 130, loader: MeshLoader())
        try cat.save()
        let back = try GlassesCatalogue.load(path: dir + "/catalogue.json")
        #expect(back.entries.count == 9 && back.entries.last?.external == true && back.entries.last?.frameWidthMM == 130)
        #expect(try back.resolve("mine", loader: MeshLoader()).frameWidthMM == 130)
        // Regenerating keeps external entries.
        var again = back
        try again.generateStandardFrames()
        #expect(again.entries.contains { $0.id == "mine" })
        // Variants by id, errors naming what exists.
        let (entry, variant, _) = try back.lookup(ids[2] + ":tortoise")
        #expect(entry.id == ids[2] && variant?.id == "tortoise")
        #expect(throws: CatalogueError.self) { try back.lookup(ids[2] + ":plaid") }
        #expect(throws: CatalogueError.self) { try back.lookup("monocle") }
        #expect(throws: MeshError.self) { try cat.addExternal(id: "gone", name: nil, modelPath: dir + "/gone.glb", frameWidthMM: nil, loader: MeshLoader()) }
        #expect(throws: CatalogueError.self) { try cat.addExternal(id: "a:b", name: nil, modelPath: dir + "/" + ids[0] + ".obj", frameWidthMM: nil, loader: MeshLoader()) }
    }

    @Test func malformedCataloguesAreRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func reason(_ text: String) -> String {
            try? Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/c.json"))
            do { _ = try GlassesCatalogue.load(path: dir + "/c.json"); return "loaded" } catch { return "\(error)" }
        }
        #expect(reason("{").contains("invalid catalogue JSON"))
        #expect(reason(#"{"format": "other", "version": 1, "frames": []}"#).contains("not a frame catalogue"))
        #expect(reason(#"{"format": "lorgnette-frame-catalogue", "version": 9, "frames": []}"#).contains("version 9"))
        #expect(reason(#"{"format": "lorgnette-frame-catalogue", "version": 1, "frames": [{"id": "a", "mesh": "a.obj"}, {"id": "a", "mesh": "b.obj"}]}"#).contains("appears twice"))
        #expect(reason(#"{"format": "lorgnette-frame-catalogue", "version": 1, "frames": []}"#) == "loaded")
        #expect(throws: CatalogueError.self) { try GlassesCatalogue.load(path: dir + "/none.json") }
    }
}
