import Foundation
import Meshes
import Testing

/// Issue 25's forged models: glTF counts, offsets, strides and sizes against the real buffer, numbers
/// out of range in valid JSON, NaN and infinity in OBJ/MTL, models of zero extent.
struct HostileMeshTests {
    static func reason(_ text: String, name: String = "model.gltf", files: [String: String] = [:]) -> String {
        do {
            let dir = try makeFuzzScratch("hostile-mesh")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8))
            for (file, content) in files { FileManager.default.createFile(atPath: dir + "/" + file, contents: Data(content.utf8)) }
            let mesh = try MeshLoader().load(path: dir + "/" + name)
            MeshFuzzTests.checkDrawable(mesh)
            return "loaded " + mesh.materials.map { "\($0.baseColor)" }.joined(separator: " ") + " " + mesh.warnings.joined(separator: "; ")
        } catch let e as MeshError { return e.reason } catch { return "\(error)" }
    }

    /// The textured quad of the fuzz seed with one substitution in its JSON.
    static func quad(_ old: String, _ new: String) -> String {
        let doc = MeshFuzzTests.gltf
        precondition(doc.contains(old), old)
        return doc.replacingOccurrences(of: old, with: new)
    }

    @Test("a 184-byte glTF whose accessor has count 2^31 and no bufferView is refused, not allocated")
    func zeroFilledAccessor() {
        let doc = #"{"asset":{"version":"2.0"},"accessors":[{"componentType":5126,"count":2147483648,"type":"VEC3"}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}]}"#
        #expect(doc.utf8.count < 200)
        #expect(Self.reason(doc) == "mesh0: accessor 0 count 2147483648 exceeds the limit of 65536 elements for an accessor without a bufferView")
    }

    @Test("glTF counts, offsets and strides near 2^62 or Int64.max are refused against the real buffer",
          arguments: [
              (#""count": 4, "type": "VEC3"}"#, #""count": 4611686018427387904, "type": "VEC3"}"#, "count 4611686018427387904 exceeds the limit"),
              (#""count": 4, "type": "VEC3"}"#, #""count": 9223372036854775807, "type": "VEC3"}"#, "count 9223372036854775807 exceeds the limit"),
              (#""count": 6, "type": "SCALAR"}"#, #""count": 4611686018427387904, "type": "SCALAR"}"#, "count 4611686018427387904 exceeds the limit"),
              (#""count": 6, "type": "SCALAR"}"#, #""count": 70, "type": "SCALAR"}"#, "needs 70 elements of 2 bytes every 2 from byte 0"),
              (#"{"bufferView": 0, "componentType""#, #"{"bufferView": 0, "byteOffset": 9223372036854775807, "componentType""#, "byteOffset 9223372036854775807 is outside bufferView 0"),
              (#"{"bufferView": 0, "componentType""#, #"{"bufferView": 0, "byteOffset": 4611686018427387904, "componentType""#, "byteOffset 4611686018427387904 is outside bufferView 0"),
              (#""byteOffset": 96, "byteLength": 32"#, #""byteOffset": 9223372036854775807, "byteLength": 32"#, "bufferView 1 (byteOffset 9223372036854775807, byteLength 32) is out of range"),
              (#""byteOffset": 96, "byteLength": 32"#, #""byteOffset": 96, "byteLength": 9223372036854775807"#, "bufferView 1 (byteOffset 96, byteLength 9223372036854775807) is out of range"),
              (#""byteStride": 12"#, #""byteStride": 4611686018427387904"#, "byteStride 4611686018427387904 is outside 1...252"),
              (#""byteLength": 140}"#, #""byteLength": 9223372036854775807}"#, "fewer than its byteLength 9223372036854775807"),
              (#""byteLength": 140}"#, #""byteLength": 4611686018427387904}"#, "fewer than its byteLength 4611686018427387904"),
          ])
    func forgedAccessors(old: String, new: String, expected: String) {
        let reason = Self.reason(Self.quad(old, new))
        #expect(reason.contains(expected), "\(reason)")
    }

    @Test("valid JSON with 1e39 names the number and where it is; a syntax error gives its line and column")
    func outOfRangeNumbers() {
        #expect(Self.reason(Self.quad(#""metallicFactor": 0.1"#, #""metallicFactor": 1e39"#))
            == "glTF number 1e+39 at .materials[0].pbrMetallicRoughness.metallicFactor is out of range (larger than a 32-bit float or an integer can hold)")
        #expect(Self.reason(Self.quad(#""count": 6,"#, #""count": 1e39,"#)).contains("glTF number 1e+39 at .accessors[3].count is out of range"))
        #expect(Self.reason(Self.quad(#""scene": 0}"#, #""scene": 0,, }"#)).hasPrefix("invalid glTF JSON: Invalid value around character"))
        #expect(Self.reason(Self.quad(#""scene": 0}"#, #""scene": 0,, }"#)).hasSuffix("(line 18, column 41)"))
    }

    @Test("glTF material factors beyond their range are clamped, never handed to the renderer")
    func clampedFactors() {
        let reason = Self.reason(Self.quad(#""baseColorFactor": [1, 0.5, 0.25, 0.5]"#, #""baseColorFactor": [3e38, -3e38, 2, 0.5]"#)
            .replacingOccurrences(of: #""ior": 1.4"#, with: #""ior": 3e38"#))
        #expect(reason.hasPrefix("loaded SIMD4<Float>(1.0, 0.0, 1.0, 0.5)"), "\(reason)")
    }

    static let triangle = "mtllib look.mtl\nusemtl m\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"

    @Test("MTL colours of NaN or infinity refuse the library with the line number (the default material is used)",
          arguments: ["Kd nan nan nan", "Kd inf 0 0", "d nan", "Tr -inf", "Ns nan"])
    func nonFiniteMTL(line: String) {
        let reason = Self.reason(Self.triangle, name: "model.obj", files: ["look.mtl": "newmtl m\n\(line)\n"])
        #expect(reason.contains("look.mtl: line 2: '\(line.split(separator: " ")[0])' value"), "\(reason)")
        #expect(reason.contains("is not a finite number; using a default material"), "\(reason)")
    }

    @Test("finite MTL colours out of range are clamped to 0...1")
    func clampedMTL() {
        let reason = Self.reason(Self.triangle, name: "model.obj", files: ["look.mtl": "newmtl m\nKd 3e38 2 -1\nd 7\nNs -5\n"])
        #expect(reason.hasPrefix("loaded SIMD4<Float>(1.0, 1.0, 0.0, 1.0)"), "\(reason)")
    }

    @Test("OBJ numbers must be finite and within 1e8, refused with their line",
          arguments: ["v nan 0 0", "v 0 inf 0", "v 1e30 0 0", "vt 0 nan", "vn 0 -inf 0"])
    func nonFiniteOBJ(line: String) {
        let reason = Self.reason("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\(line)\nf 1 2 3\n", name: "model.obj")
        #expect(reason.hasPrefix("line 6: "), "\(reason)")
    }

    @Test("a zero OBJ normal becomes +z instead of NaN")
    func zeroNormal() {
        #expect(Self.reason("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 0\nf 1//1 2//1 3//1\n", name: "model.obj").hasPrefix("loaded"))
    }

    @Test("models of zero extent are refused instead of being drawn 0.0 mm wide")
    func zeroExtent() {
        #expect(Self.reason("v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\n", name: "model.obj").contains("zero extent"))
        #expect(Self.reason("v 0 0 0\nv 0 1 0\nv 0 2 0\nf 1 2 3\n", name: "model.obj").contains("zero extent"))
        let flat = Self.quad(#""translation": [0.1, 0, 0], "scale": [2, 2, 2]"#, #""translation": [0.1, 0, 0], "scale": [0, 0, 0]"#)
        #expect(Self.reason(flat).contains("zero extent"))
        let huge = Self.quad(#""translation": [0.1, 0, 0], "scale": [2, 2, 2]"#, #""translation": [0.1, 0, 0], "scale": [3e38, 3e38, 3e38]"#)
        #expect(Self.reason(huge).contains("exceeds the limit of 1e+08"))
    }
}
