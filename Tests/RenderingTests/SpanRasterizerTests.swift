import GlassesCatalogue
import Imaging
import Meshes
@testable import Rendering
import Testing

/// `FastPathEquivalenceTests` compares the span path (`Rasterizer.drawSpans`) with the reference
/// rasteriser only if its close poses really send lens triangles down that path and put a lens
/// over the image's last pixels; these tests check that they do.
struct SpanRasterizerTests {
    static func glasses() -> RenderableMesh {
        RenderableMesh(GlassesGenerator.generate(style: .rectangular, size: GlassesSize(lensWidth: 52, bridge: 18, templeLength: 140)))
    }

    static func pose(_ name: String) -> FastPathEquivalenceTests.Pose {
        FastPathEquivalenceTests.poses.first { $0.name == name }!
    }

    @Test func closeLensesAreDrawnAsSpansAndDistantOnesAreQueued() {
        let near = Self.glasses()
        _ = FastPathEquivalenceTests.render(near, pose: Self.pose("filling the frame"), lighting: .studio, reference: false)
        // The translucent lenses are drawn last: their triangles are the mesh's scratch afterwards.
        let wide = near.triangles.filter { Rasterizer.drawsAsSpans($0, mayDiscard: false) }.count
        #expect(wide >= 8, "only \(wide) of \(near.triangles.count) lens triangles take the span path")
        let far = Self.glasses()
        _ = FastPathEquivalenceTests.render(far, pose: Self.pose("three-quarter"), lighting: .studio, reference: false)
        #expect(!far.triangles.contains { Rasterizer.drawsAsSpans($0, mayDiscard: false) })
    }

    @Test func antialiasedOrDiscardingTrianglesAreNeverSpans() {
        let wide = ScreenTriangle(p0: [10, 10, 0.01], p1: [200, 20, 0.01], p2: [60, 150, 0.01], source: 0, smoothEdges: 0, frontFacing: true)
        #expect(Rasterizer.drawsAsSpans(wide, mayDiscard: false))
        #expect(!Rasterizer.drawsAsSpans(wide, mayDiscard: true))
        var smooth = wide
        smooth.smoothEdges = 2
        #expect(!Rasterizer.drawsAsSpans(smooth, mayDiscard: false))
    }

    @Test func theGlassesReachTheLastPixelInTheCornerPose() {
        let image = FastPathEquivalenceTests.render(Self.glasses(), pose: Self.pose("in the corner"), lighting: .studio, reference: false)
        let plain = FastPathEquivalenceTests.background(image.width, image.height)
        let last = image.pixels.count - 3
        #expect(Array(image.pixels[last...]) != Array(plain.pixels[last...]), "the corner pose no longer reaches the last pixel")
    }
}
