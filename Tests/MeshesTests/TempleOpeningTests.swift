import Meshes
import Testing

struct TempleOpeningTests {
    /// A wire-frame stand-in: a front bar 130 mm wide and two straight temples 120 mm long.
    static func glasses() -> CanonicalGlasses {
        func bar(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> [SIMD3<Float>] { (0...20).map { a + (b - a) * Float($0) / 20 } }
        var positions = bar([-65, 0, 0], [65, 0, 0]) + bar([65, 0, -1], [65, 0, -121]) + bar([-65, 0, -1], [-65, 0, -121])
        positions += positions.map { $0 + [0, 2, 0] }
        var indices: [UInt32] = []
        for s in [0, 21, 42] { for i in 0..<20 { let a = UInt32(s + i); indices += [a, a + 1, a + 64, a + 1, a + 64, a + 63 + 2] } }
        let mesh = Mesh(primitives: [MeshPrimitive(name: "wire", positions: positions, normals: Array(repeating: [0, 0, 1], count: positions.count),
                                                   uvs: [], indices: indices, materialIndex: 0)],
                        materials: [Material(name: "m")])
        return GlassesNormalizer.normalize(mesh.transformed(by: .scaling(0.001)))
    }

    @Test func templeEndsReachTheRequestedHalfWidthAndTheFrontStays() throws {
        let before = Self.glasses()
        #expect(before.scale == .metric)
        let opened = TempleOpening.open(before, templeEndHalfWidthMM: 75)
        #expect(abs(opened.regions.leftTempleEnd.x - 75) < 0.3, "\(opened.regions.leftTempleEnd)")
        #expect(abs(opened.regions.rightTempleEnd.x + 75) < 0.3, "\(opened.regions.rightTempleEnd)")
        // The front bar (z = 0) did not move; temple length is kept (a rotation).
        let front0 = before.mesh.primitives[0].positions.filter { $0.z > -0.5 }
        let front1 = opened.mesh.primitives[0].positions.filter { $0.z > -0.5 }
        #expect(front0 == front1)
        let hinge = before.regions.leftHinge
        let lengthBefore = simdLength(before.regions.leftTempleEnd - hinge)
        let lengthAfter = simdLength(opened.regions.leftTempleEnd - hinge)
        #expect(abs(lengthBefore - lengthAfter) < 0.5)
        // Closing works too.
        #expect(abs(TempleOpening.open(before, templeEndHalfWidthMM: 60).regions.leftTempleEnd.x - 60) < 0.3)
    }
}
