import Foundation
import Meshes
import Testing

/// Issue 23 item 2: tolerant where viewers are tolerant (missing textures, extensions the file
/// does not require, skins, animations, avatar space), strict where they are strict (a required
/// extension that is not implemented).
struct TolerantLoadingTests {
    static func bytes(_ floats: [Float]) -> [UInt8] { floats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) } }

    func load(_ json: String) throws -> Mesh {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/model.gltf"))
        return try GLTFLoader().load(path: dir + "/model.gltf")
    }

    @Test func missingTextureFileWarnsAndKeepsTheBaseColour() throws {
        let json = GLTFLoaderTests.quadDocument(extra: """
            "images": [{"uri": "gone/diffuse.png"}], "textures": [{"source": 0}],
            """).replacingOccurrences(of: #""baseColorFactor": [1, 0, 0, 0.5]"#,
                                      with: #""baseColorFactor": [1, 0, 0, 0.5], "baseColorTexture": {"index": 0}"#)
        let mesh = try load(json)
        #expect(mesh.triangleCount == 2)
        #expect(mesh.materials[0].baseColorTexture == nil && mesh.materials[0].baseColor == [1, 0, 0, 0.5])
        #expect(mesh.warnings.contains { $0.contains("gone/diffuse.png") && $0.contains("not found") && $0.contains("base colour") },
                "\(mesh.warnings)")
    }

    @Test func unreadableTextureWarnsAndKeepsTheBaseColour() throws {
        let json = GLTFLoaderTests.quadDocument(extra: """
            "images": [{"uri": "data:image/png;base64,\(Data("not a picture".utf8).base64EncodedString())"}], "textures": [{"source": 0}],
            """).replacingOccurrences(of: #""baseColorFactor": [1, 0, 0, 0.5]"#,
                                      with: #""baseColorFactor": [1, 0, 0, 0.5], "baseColorTexture": {"index": 0}"#)
        let mesh = try load(json)
        #expect(mesh.materials[0].baseColorTexture == nil)
        #expect(mesh.warnings.contains { $0.hasPrefix("image 0") && $0.contains("base colour") }, "\(mesh.warnings)")
    }

    @Test func extensionsNotRequiredAreIgnoredWithANote() throws {
        let mesh = try load(GLTFLoaderTests.quadDocument(extra: #""extensionsUsed": ["KHR_materials_sheen", "VENDOR_sparkle"], "animations": [{"channels": [], "samplers": []}],"#))
        #expect(mesh.triangleCount == 2)
        #expect(mesh.warnings.contains("extension KHR_materials_sheen is not supported; ignored (the file does not require it)"))
        #expect(mesh.warnings.contains { $0.contains("VENDOR_sparkle") })
        #expect(mesh.warnings.contains("1 animation ignored; drawn in the rest pose"))
    }

    @Test func unsupportedRequiredExtensionIsRefusedByName() throws {
        #expect(throws: MeshError.self) { try load(GLTFLoaderTests.quadDocument(extra: #""extensionsUsed": ["VENDOR_sparkle"], "extensionsRequired": ["VENDOR_sparkle"],"#)) }
        do { _ = try load(GLTFLoaderTests.quadDocument(extra: #""extensionsRequired": ["VENDOR_sparkle"],"#)) } catch let e as MeshError {
            #expect(e.reason.contains("required extension VENDOR_sparkle is not supported"))
        }
    }

    /// Two joints: vertices 0 and 1 follow the head (0, 1.7, 0); 2 and 3 sit half-way between it and
    /// the jaw (0, 1.6, 0). The skinned node's own translation (100 m) is ignored, as the spec says.
    @Test func skinnedMeshIsDrawnInItsBindPose() throws {
        let positions = Self.bytes([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0])
        let joints: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]
        let weights = Self.bytes([1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0])
        let payload = positions + joints + weights
        let json = """
        {"asset": {"version": "2.0"},
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(payload).base64EncodedString())", "byteLength": \(payload.count)}],
         "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 16},
                         {"buffer": 0, "byteOffset": 64, "byteLength": 64}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5121, "count": 4, "type": "VEC4"},
                       {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC4"}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
         "skins": [{"joints": [2, 3]}],
         "nodes": [{"name": "Armature", "children": [1, 2]}, {"mesh": 0, "skin": 0, "translation": [100, 0, 0]},
                   {"name": "Head", "translation": [0, 1.7, 0], "children": [3]}, {"name": "Jaw", "translation": [0, -0.1, 0]}],
         "scenes": [{"nodes": [0]}]}
        """
        let mesh = try load(json)
        let p = mesh.primitives[0].positions
        #expect(simdLength(p[0] - [0, 1.7, 0]) < 1e-5 && simdLength(p[1] - [1, 1.7, 0]) < 1e-5)
        #expect(simdLength(p[2] - [1, 2.65, 0]) < 1e-5 && simdLength(p[3] - [0, 2.65, 0]) < 1e-5, "\(p)")
    }
}

/// Avatar space with a real model: the Khronos sunglasses under a centimetre rig at head height.
@Suite("Avatar-space glasses", .enabled(if: SharedModels.available, "\(SharedModels.skipMessage)"))
struct AvatarSpaceTests {
    @Test func glassesUnderAHumanoidRigNormaliseLikeTheOriginal() throws {
        let source = SharedModels.directory + "/khronos_sunglasses/SunglassesKhronos.glb"
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let avatar = dir + "/avatar.glb"
        // Armature in centimetres (scale 0.01, as FBX-born rigs are), Hips → Head at 170 cm, and the
        // glasses' own nodes under the head, scaled back up by 100, plus an animation to be ignored.
        try GLBRewriter.rewrite(source, to: avatar) { json in
            var nodes = json["nodes"] as! [[String: Any]]
            let scenes = json["scenes"] as! [[String: Any]]
            let roots = scenes[0]["nodes"] as! [Int]
            let n = nodes.count
            nodes.append(["name": "Armature", "scale": [0.01, 0.01, 0.01], "children": [n + 1]])
            nodes.append(["name": "Hips", "translation": [0, 95, 0], "children": [n + 2]])
            nodes.append(["name": "Head", "translation": [0, 75, 3], "scale": [100, 100, 100], "children": roots])
            json["nodes"] = nodes
            json["scenes"] = [["nodes": [n]]]
            json["animations"] = [["channels": [], "samplers": []]]
        }
        let loader = SharedModels.loader()
        let plain = try loader.load(path: source), placed = try loader.load(path: avatar)
        let a = try #require(plain.bounds), b = try #require(placed.bounds)
        #expect(simdLength((b.min - a.min) - [0, 1.7, 0.03]) < 1e-4, "glasses at head height: \(b.min)")
        let p = GlassesNormalizer.normalize(plain), q = GlassesNormalizer.normalize(placed)
        #expect(p.scale == .metric && q.scale == .metric)
        let pb = try #require(p.mesh.bounds), qb = try #require(q.mesh.bounds)
        #expect(simdLength(pb.min - qb.min) < 0.05 && simdLength(pb.max - qb.max) < 0.05, "same canonical box in mm")
        #expect(simdLength(p.regions.bridge - q.regions.bridge) < 0.05)
        #expect(placed.warnings.contains("1 animation ignored; drawn in the rest pose"))
    }
}
