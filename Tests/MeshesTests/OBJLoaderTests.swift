import Foundation
import Meshes
import Testing

struct OBJLoaderTests {
    func write(_ files: [String: String]) throws -> String {
        let dir = try makeScratchDirectory()
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        return dir
    }

    @Test func quadsNegativeIndicesMaterialsAndFlippedV() throws {
        let dir = try write([
            "m.obj": """
            # a unit quad in two materials
            mtllib m.mtl
            v 0 0 0
            v 1 0 0
            v 1 1 0
            v 0 1 0
            vt 0 0
            vt 1 0
            vt 1 1
            vt 0 1
            usemtl frame
            f 1/1 2/2 3/3 4/4
            usemtl lens
            f -4/-4 -2/-2 -1/-1
            """,
            "m.mtl": "newmtl frame\nKd 1 0.5 0\nNs 100\nnewmtl lens\nKd 0.2 0.2 0.2\nd 0.3\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mesh = try OBJLoader().load(path: dir + "/m.obj")
        #expect(mesh.primitives.count == 2)
        #expect(mesh.primitives[0].triangleCount == 2 && mesh.primitives[1].triangleCount == 1)
        let frame = mesh.materials[mesh.primitives[0].materialIndex]
        #expect(frame.name == "frame" && frame.baseColor.x == 1 && abs(frame.baseColor.y - 0.214) < 1e-3, "Kd linearised")
        #expect(frame.alphaMode == .opaque)
        let lens = mesh.materials[mesh.primitives[1].materialIndex]
        #expect(lens.alphaMode == .blend && abs(lens.baseColor.w - 0.3) < 1e-6)
        // v = 0 at the bottom in OBJ, at the top in glTF.
        let p = mesh.primitives[0]
        let i = try #require(p.positions.firstIndex(of: [0, 0, 0]))
        #expect(p.uvs[i] == [0, 1])
        #expect(p.normals.allSatisfy { abs($0.z - 1) < 1e-6 }, "computed normals face +z")
    }

    @Test func errorsNameTheLine() throws {
        let dir = try write(["bad.obj": "v 0 0 0\nv 1 0 0\nf 1 2 7\n", "nan.obj": "v 0 x 0\n", "empty.obj": "v 0 0 0\n",
                             "nomtl.obj": "mtllib gone.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl x\nf 1 2 3\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: MeshError(dir + "/bad.obj", "line 3: vertex index 7 is out of range (2 defined)")) {
            try OBJLoader().load(path: dir + "/bad.obj")
        }
        #expect(throws: MeshError(dir + "/nan.obj", "line 1: 'x' is not a number")) { try OBJLoader().load(path: dir + "/nan.obj") }
        #expect(throws: MeshError(dir + "/empty.obj", "OBJ file has no faces")) { try OBJLoader().load(path: dir + "/empty.obj") }
        // A missing material library is not fatal: the faces load with a default material and a warning.
        let mesh = try OBJLoader().load(path: dir + "/nomtl.obj")
        #expect(mesh.triangleCount == 1 && mesh.warnings.count == 2)
    }
}
