import Foundation
import Meshes
import Testing

/// Issue 25: files a model names stay inside its folder. A downloaded glTF whose buffer or image
/// URI is `../../etc/passwd` or an absolute path is refused, an OBJ's `mtllib` / `map_Kd` outside
/// it is not read; `allowsFilesOutsideFolder` (the CLI's `--allow-outside-uris`) reads them.
struct ModelFolderTests {
    let payload = GLTFLoaderTests.bytes([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] as [Float]) + GLTFLoaderTests.bytes([0, 1, 2, 0, 2, 3] as [UInt16])

    /// `root/model/` holding the model, `root/outside.bin` beside it; returns root.
    private func layout(_ files: [String: [UInt8]]) throws -> String {
        let root = try makeScratchDirectory()
        try FileManager.default.createDirectory(atPath: root + "/model/sub", withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + name)) }
        return root
    }

    private func reason(_ path: String, allow: Bool = false) -> String {
        var loader = GLTFLoader()
        loader.allowsFilesOutsideFolder = allow
        do { _ = try loader.load(path: path); return "loaded" } catch let e as MeshError { return e.reason } catch { return "\(error)" }
    }

    @Test func gltfBuffersOutsideTheFolderAreRefused() throws {
        let root = try layout(["outside.bin": payload, "model/sub/inside.bin": payload])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cases = ["../outside.bin", "%2E%2E/outside.bin", "sub/../../outside.bin", root + "/outside.bin", "../../../../../../etc/passwd", "/etc/passwd"]
        for uri in cases {
            let path = root + "/model/m.gltf"
            try Data(GLTFLoaderTests.quadDocument(bufferURI: uri).utf8).write(to: URL(fileURLWithPath: path))
            let why = reason(path)
            #expect(why.contains("is outside the model's folder"), "\(uri): \(why)")
        }
        // Inside the folder, and outside with the user's consent.
        try Data(GLTFLoaderTests.quadDocument(bufferURI: "sub/inside.bin").utf8).write(to: URL(fileURLWithPath: root + "/model/m.gltf"))
        #expect(reason(root + "/model/m.gltf") == "loaded")
        try Data(GLTFLoaderTests.quadDocument(bufferURI: "../outside.bin").utf8).write(to: URL(fileURLWithPath: root + "/model/m.gltf"))
        #expect(reason(root + "/model/m.gltf", allow: true) == "loaded")
    }

    @Test func aSymlinkOutOfTheFolderIsRefused() throws {
        let root = try layout(["outside.bin": payload])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/model/link.bin", withDestinationPath: root + "/outside.bin")
        try Data(GLTFLoaderTests.quadDocument(bufferURI: "link.bin").utf8).write(to: URL(fileURLWithPath: root + "/model/m.gltf"))
        #expect(reason(root + "/model/m.gltf").contains("is outside the model's folder"))
    }

    @Test func objMaterialLibrariesAndTexturesOutsideAreNotRead() throws {
        let mtl = Array("newmtl red\nKd 1 0 0\nmap_Kd ../../tex.png\n".utf8)
        let obj = Array("mtllib ../outside.mtl\nmtllib inside.mtl\nusemtl red\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".utf8)
        let root = try layout(["outside.mtl": mtl, "model/inside.mtl": mtl, "model/m.obj": obj])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let mesh = try OBJLoader().load(path: root + "/model/m.obj")
        #expect(mesh.warnings.contains { $0.contains("mtllib '../outside.mtl' is outside the model's folder") }, "\(mesh.warnings)")
        #expect(mesh.warnings.contains { $0.contains("'../../tex.png' is outside the model's folder") }, "\(mesh.warnings)")
        // The library inside the folder was read: its red material is used.
        #expect(mesh.materials.contains { $0.name == "red" })
    }
}
