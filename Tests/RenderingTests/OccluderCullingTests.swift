import GlassesCatalogue
import Imaging
import Meshes
import Rendering
import Testing

/// `drawOccluder` skips the inward-facing triangles of closed surfaces only: the nearest depth must
/// stay that of the surface the camera sees, and open surfaces must still occlude from both sides.
struct OccluderCullingTests {
    @Test func closedSurfacesKnowTheirOutside() {
        let head = RenderableMesh(HeadOccluder.mesh())
        #expect(head.outwardWinding == [true, true], "head and ears are closed and wound outwards")
        let box = RenderableMesh(Mesh(primitives: [SceneFixtures.box(min: [-10, -10, 100], max: [10, 10, 120], material: 0)],
                                      materials: [SceneFixtures.material([1, 1, 1])]))
        #expect(box.outwardWinding == [true])
        let quad = RenderableMesh(Mesh(primitives: [SceneFixtures.quad(x: -10...10, y: -10...10, z: 100)],
                                       materials: [SceneFixtures.material([1, 1, 1])]))
        #expect(quad.outwardWinding == [nil], "an open quad has no inside")
        // Reversing every triangle turns the outside into the back side.
        var inverted = SceneFixtures.box(min: [-10, -10, 100], max: [10, 10, 120], material: 0)
        for t in 0..<inverted.triangleCount { inverted.indices.swapAt(3 * t + 1, 3 * t + 2) }
        #expect(RenderableMesh(Mesh(primitives: [inverted], materials: [SceneFixtures.material([1, 1, 1])])).outwardWinding == [false])
    }

    /// A closed box occluder from outside, wound either way: depth is its near face's (z = 100), so a
    /// surface at z = 110 inside it stays hidden and one at z = 90 in front of it shows.
    @Test(arguments: [false, true])
    func closedOccluderKeepsTheNearestDepth(inverted: Bool) {
        var box = SceneFixtures.box(min: [-10, -10, 100], max: [10, 10, 120], material: 0)
        if inverted { for t in 0..<box.triangleCount { box.indices.swapAt(3 * t + 1, 3 * t + 2) } }
        let occluder = RenderableMesh(Mesh(primitives: [box], materials: [SceneFixtures.material([1, 1, 1])]))
        let renderer = SceneRenderer()
        var image = SceneFixtures.background()
        renderer.beginFrame(width: 200, height: 200)
        renderer.drawOccluder(occluder, modelToWorld: .identity, camera: SceneFixtures.camera(), into: &image)
        #expect(abs((renderer.depth.depth(x: 100, y: 100) ?? 0) - 100) < 1e-2, "\(String(describing: renderer.depth.depth(x: 100, y: 100)))")
        #expect(image == SceneFixtures.background(), "an occluder draws no colour")
    }

    @Test func openOccluderHidesFromBehindToo() {
        // The quad faces the camera at the origin; turned round it shows its back, and must still occlude.
        let quad = RenderableMesh(Mesh(primitives: [SceneFixtures.quad(x: -10...10, y: -10...10, z: 0)],
                                       materials: [SceneFixtures.material([1, 1, 1])]))
        let renderer = SceneRenderer()
        var image = SceneFixtures.background()
        renderer.beginFrame(width: 200, height: 200)
        let turned = Transform3D.translation([0, 0, 100]) * Transform3D.rotation(axis: [0, 1, 0], radians: .pi)
        renderer.drawOccluder(quad, modelToWorld: turned, camera: SceneFixtures.camera(), into: &image)
        #expect(abs((renderer.depth.depth(x: 100, y: 100) ?? 0) - 100) < 1e-2)
    }
}
