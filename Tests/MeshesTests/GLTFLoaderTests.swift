import Foundation
import Meshes
import Testing

/// Synthetic glTF files written to a scratch folder: hierarchy, accessors and every refusal.
struct GLTFLoaderTests {
    /// Little-endian bytes of floats and 16-bit indices.
    static func bytes(_ floats: [Float]) -> [UInt8] { floats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) } }
    static func bytes(_ shorts: [UInt16]) -> [UInt8] { shorts.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) } }

    /// One quad (two indexed triangles) in the z = 0 plane, positions then indices in one buffer.
    static func quadDocument(extra: String = "", nodes: String? = nil, indexCount: Int = 6, bufferURI: String? = nil,
                             byteLength: Int? = nil) -> String {
        let payload = bytes([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] as [Float]) + bytes([0, 1, 2, 0, 2, 3] as [UInt16])
        let uri = bufferURI ?? "data:application/octet-stream;base64," + Data(payload).base64EncodedString()
        return """
        {"asset": {"version": "2.0"}, \(extra)
         "buffers": [{"uri": "\(uri)", "byteLength": \(byteLength ?? payload.count)}],
         "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5123, "count": \(indexCount), "type": "SCALAR"}],
         "materials": [{"name": "red", "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 0.5]}, "alphaMode": "BLEND",
                        "extensions": {"KHR_materials_transmission": {"transmissionFactor": 0.7}, "KHR_materials_ior": {"ior": 1.4}}}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
         "nodes": \(nodes ?? #"[{"mesh": 0}]"#),
         "scenes": [{"nodes": [0]}], "scene": 0}
        """
    }

    func load(_ json: String, name: String = "model.gltf", files: [String: [UInt8]] = [:]) throws -> Mesh {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        for (file, content) in files { try Data(content).write(to: URL(fileURLWithPath: dir + "/" + file)) }
        return try GLTFLoader().load(path: dir + "/" + name)
    }

    func reason(_ json: String, files: [String: [UInt8]] = [:]) -> String {
        do { _ = try load(json, files: files); return "loaded" } catch let e as MeshError { return e.reason } catch { return "\(error)" }
    }

    @Test func quadLoadsWithComputedNormalsAndMaterial() throws {
        let mesh = try load(Self.quadDocument())
        #expect(mesh.triangleCount == 2)
        let p = mesh.primitives[0]
        #expect(p.normals.allSatisfy { abs($0.z - 1) < 1e-6 }, "counter-clockwise quad faces +z")
        let m = mesh.materials[p.materialIndex]
        #expect(m.alphaMode == .blend && m.baseColor == [1, 0, 0, 0.5] && m.transmission == 0.7 && m.indexOfRefraction == 1.4)
        #expect(m.isLens)
    }

    @Test func nodeHierarchyComposesTranslationRotationAndScale() throws {
        // Parent: translate (10, 0, 0); child: rotate 90° about z then scale 2.
        let s = Float(0.5).squareRoot()
        let nodes = """
        [{"translation": [10, 0, 0], "children": [1]}, {"mesh": 0, "rotation": [0, 0, \(s), \(s)], "scale": [2, 2, 2]}]
        """
        let mesh = try load(Self.quadDocument(nodes: nodes))
        let box = try #require(mesh.bounds)
        // Quad [0,1]x[0,1] scaled to [0,2]^2 then rotated 90° about z: x in [-2, 0], y in [0, 2]; then +10 in x.
        #expect(abs(box.min.x - 8) < 1e-5 && abs(box.max.x - 10) < 1e-5)
        #expect(abs(box.min.y) < 1e-5 && abs(box.max.y - 2) < 1e-5)
        #expect(mesh.primitives[0].normals.allSatisfy { abs($0.z - 1) < 1e-5 })
    }

    @Test func mirroringNodeKeepsFrontFacesOutward() throws {
        let mesh = try load(Self.quadDocument(nodes: #"[{"mesh": 0, "scale": [-1, 1, 1]}]"#))
        let p = mesh.primitives[0]
        let a = p.positions[Int(p.indices[0])], b = p.positions[Int(p.indices[1])], c = p.positions[Int(p.indices[2])]
        #expect(simdCross(b - a, c - a).z > 0, "winding re-ordered after a mirror")
    }

    @Test func nonIndexedTrianglesLoad() throws {
        let json = Self.quadDocument().replacingOccurrences(of: #", "indices": 1"#, with: "")
        let mesh = try load(json)
        #expect(mesh.triangleCount == 1) // 4 vertices: one whole triangle, the rest dropped
    }

    @Test func externalBufferAndGLB() throws {
        let payload = Self.bytes([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] as [Float]) + Self.bytes([0, 1, 2, 0, 2, 3] as [UInt16])
        let mesh = try load(Self.quadDocument(bufferURI: "quad%20data.bin"), files: ["quad data.bin": payload])
        #expect(mesh.triangleCount == 2)
        #expect(reason(Self.quadDocument(bufferURI: "missing.bin")) == "buffer 0 file 'missing.bin' not found")

        // The same document as GLB with the buffer in the BIN chunk.
        var json = Array(Self.quadDocument().utf8)
        json = Array(String(decoding: json, as: UTF8.self).replacingOccurrences(
            of: #""uri": "data:application/octet-stream;base64,"# + Data(payload).base64EncodedString() + #"", "#, with: "").utf8)
        while json.count % 4 != 0 { json.append(0x20) }
        var bin = payload
        while bin.count % 4 != 0 { bin.append(0) }
        func u32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian, Array.init) }
        let glb = u32(0x4654_6C67) + u32(2) + u32(12 + 8 + json.count + 8 + bin.count)
            + u32(json.count) + u32(0x4E4F_534A) + json + u32(bin.count) + u32(0x004E_4942) + bin
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(glb).write(to: URL(fileURLWithPath: dir + "/m.glb"))
        #expect(try GLTFLoader().load(path: dir + "/m.glb").triangleCount == 2)
        try Data(glb.prefix(40)).write(to: URL(fileURLWithPath: dir + "/t.glb"))
        #expect(throws: MeshError.self) { try GLTFLoader().load(path: dir + "/t.glb") }
        try Data("not a glb".utf8).write(to: URL(fileURLWithPath: dir + "/x.glb"))
        #expect((try? GLTFLoader().load(path: dir + "/x.glb")) == nil)
    }

    @Test func malformedFilesNameTheProblem() throws {
        #expect(reason("{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [") .hasPrefix("invalid glTF JSON"))
        #expect(reason("{\"nodes\": []}").contains("missing member 'asset'"))
        #expect(reason(Self.quadDocument(indexCount: 60)).contains("out of range"))
        #expect(reason(Self.quadDocument(byteLength: 6000)).contains("fewer than its byteLength"))
        #expect(reason(Self.quadDocument(extra: #""extensionsRequired": ["EXT_lights_image_based"],"#))
                == "required extension EXT_lights_image_based is not supported (the file cannot be drawn without it)")
        #expect(reason(Self.quadDocument(extra: #""extensionsRequired": ["KHR_materials_transmission"],"#)) == "loaded")
        #expect(reason(Self.quadDocument().replacingOccurrences(of: "\"2.0\"", with: "\"1.0\"")).contains("version 1.0"))
        #expect(reason(Self.quadDocument(nodes: #"[{"mesh": 3}]"#)).contains("missing mesh 3"))
        #expect(reason(Self.quadDocument(nodes: #"[{"mesh": 0, "children": [0]}]"#)).contains("cycle"))
        do {
            _ = try GLTFLoader().load(path: "/nonexistent/glasses.gltf")
            Issue.record("missing file loaded")
        } catch let e as MeshError {
            #expect(e.description == "/nonexistent/glasses.gltf: model file not found")
        }
        #expect(throws: MeshError.self) { try MeshLoader().load(path: "/tmp/glasses.fbx") }
    }
}
