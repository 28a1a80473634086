import Imaging
import Meshes
import Rendering
import Testing

/// Issue 23: parts that touch (separate closed boxes stacked face to face, as in
/// facefit_glasses3) are drawn without a light seam between them; only the model's outline is
/// anti-aliased (`EdgeAdjacency.contacts`).
struct ContactEdgeTests {
    /// A closed axis-aligned box, flat normals, counter-clockwise seen from outside.
    static func box(_ lo: SIMD3<Float>, _ hi: SIMD3<Float>, name: String) -> MeshPrimitive {
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], indices: [UInt32] = []
        for axis in 0..<3 {
            for side in [Float(-1), 1] {
                var n = SIMD3<Float>.zero
                n[axis] = side
                let u = (axis + 1) % 3, v = (axis + 2) % 3
                var quad: [SIMD3<Float>] = []
                for (a, b) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                    var p = SIMD3<Float>.zero
                    p[axis] = side > 0 ? hi[axis] : lo[axis]
                    p[u] = a == 0 ? lo[u] : hi[u]
                    p[v] = b == 0 ? lo[v] : hi[v]
                    quad.append(p)
                }
                // Wind the quad counter-clockwise around its outward normal.
                if simdDot(simdCross(quad[1] - quad[0], quad[2] - quad[0]), n) < 0 { quad.reverse() }
                let base = UInt32(positions.count)
                positions += quad
                normals += Array(repeating: n, count: 4)
                indices += [base, base + 1, base + 2, base, base + 2, base + 3]
            }
        }
        return MeshPrimitive(name: name, positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: 0)
    }

    /// A 3x2 wall of dark 10 mm blocks, each its own primitive.
    static func wall() -> Mesh {
        var blocks: [MeshPrimitive] = []
        for i in 0..<3 {
            for j in 0..<2 {
                let lo = SIMD3<Float>(Float(i) * 10 - 15, Float(j) * 10 - 10, -4)
                blocks.append(box(lo, lo + [10, 10, 8], name: "block \(i) \(j)"))
            }
        }
        return Mesh(primitives: blocks, materials: [Material(name: "black", baseColor: [0.02, 0.02, 0.02, 1], metallic: 0, roughness: 0.6)])
    }

    @Test func touchingBlocksShareContactEdges() {
        let wall = Self.wall()
        let contacts = EdgeAdjacency.contacts(wall.primitives, weldTolerance: 1e-4)
        let flagged = contacts.reduce(0) { $0 + $1.reduce(0) { $0 + $1.nonzeroBitCount } }
        #expect(flagged > 0)
        // A lone block has none.
        let lone = EdgeAdjacency.contacts([Self.box([0, 0, 0], [1, 1, 1], name: "one")], weldTolerance: 1e-4)
        #expect(lone.allSatisfy { $0.allSatisfy { $0 == 0 } })
        // Every flagged edge of block (0, 0) lies on its faces x = −5 or y = 0 (where it touches).
        let block = wall.primitives[0]
        for (t, mask) in contacts[0].enumerated() {
            for k in 0..<3 where mask & (1 << UInt8(k)) != 0 {
                let a = block.positions[Int(block.indices[3 * t + k])], b = block.positions[Int(block.indices[3 * t + (k + 1) % 3])]
                #expect((a.x == -5 && b.x == -5) || (a.y == 0 && b.y == 0), "edge \(a) – \(b)")
            }
        }
    }

    /// Seen turned either way, the wall's inside looks the same anti-aliased or not: no pixel whose
    /// whole 3x3 neighbourhood is inside the wall (in the unsmoothed render) is lighter by more than
    /// 8 levels. Before contacts were excluded, the blocks' touching outlines showed the side faces
    /// and backdrop through: a grid of light lines (up to 120 levels here).
    @Test func touchingBlocksShowNoSeams() {
        let wall = Self.wall()
        let mesh = RenderableMesh(wall)
        let turntable = Turntable(bounds: wall.bounds!, width: 320, height: 240)
        for yaw: Float in [-25, 0, 25, 40] {
            let camera = turntable.camera(yawDegrees: yaw, width: 320, height: 240)
            func render(_ smooth: Bool) -> RGBImage {
                var image = Turntable.backdrop(width: 320, height: 240)
                let renderer = SceneRenderer()
                renderer.antialiasing = smooth
                renderer.beginFrame(width: 320, height: 240)
                renderer.draw(mesh, modelToWorld: .identity, camera: camera, into: &image)
                return image
            }
            let plain = render(false), smooth = render(true)
            let backdrop = Turntable.backdrop(width: 320, height: 240)
            func inside(_ x: Int, _ y: Int) -> Bool { plain.pixels[3 * (y * 320 + x)] != backdrop.pixels[3 * (y * 320 + x)] }
            var worst = 0, at = SIMD2<Int>(0, 0)
            for y in 1..<239 {
                for x in 1..<319 where (-1...1).allSatisfy({ dy in (-1...1).allSatisfy { dx in inside(x + dx, y + dy) } }) {
                    let o = 3 * (y * 320 + x)
                    let d = Int(smooth.pixels[o + 1]) - Int(plain.pixels[o + 1])
                    if d > worst { worst = d; at = [x, y] }
                }
            }
            #expect(worst <= 8, "yaw \(yaw): a pixel inside the wall is \(worst) levels lighter anti-aliased, at \(at)")
        }
    }
}
