import Imaging
import Meshes
import Rendering
import Testing

/// Records the barycentric coordinates the rasteriser hands to the shader, per pixel.
final class BarycentricProbe: @unchecked Sendable {
    var values: [Int: SIMD3<Float>] = [:]
}

struct ProbeShader: FragmentShader {
    let probe: BarycentricProbe
    let width: Int
    var writesDepth: Bool { true }
    var writesColor: Bool { true }
    func fragment(triangle: Int, varying barycentric: SIMD3<Float>, frontFacing: Bool) -> Fragment? {
        Fragment(add: barycentric)
    }
}

struct RasterizerTests {
    @Test func pixelCentresInsideAreCoveredAndDepthIsNearest() {
        var image = SceneFixtures.background(20, 20)
        var depth = DepthBuffer(width: 20, height: 20)
        // Far triangle (z = 200) covering everything, then a near one (z = 100) over the left half, then far again.
        let far = ScreenTriangle(p0: [-10, -10, 1 / 200], p1: [60, -10, 1 / 200], p2: [-10, 60, 1 / 200], source: 0)
        let near = ScreenTriangle(p0: [0, 0, 1 / 100], p1: [9.5, 0, 1 / 100], p2: [0, 19.5, 1 / 100], source: 0)
        Rasterizer.rasterize([far], shader: FlatShader(color: [0, 0, 1]), color: &image, depth: &depth)
        Rasterizer.rasterize([near], shader: FlatShader(color: [1, 0, 0]), color: &image, depth: &depth)
        Rasterizer.rasterize([far], shader: FlatShader(color: [0, 1, 0]), color: &image, depth: &depth)
        #expect(image[0, 0] == (255, 0, 0), "near red survives a later far draw")
        #expect(image[9, 0] == (255, 0, 0), "pixel centre x = 9 is inside an edge at 9.5")
        #expect(image[10, 0] == (0, 0, 255), "x = 10 is outside the near triangle; an equal-depth redraw does not pass the test")
        #expect(abs((depth.depth(x: 0, y: 0) ?? 0) - 100) < 1e-3)
        #expect(abs((depth.depth(x: 15, y: 15) ?? 0) - 200) < 1e-2)
    }

    /// A quad receding from z = 100 to z = 300: its 3D midpoint projects nearer the near edge, and
    /// the interpolated barycentrics there must be the 3D ones (0.5), not the screen-space ones.
    @Test func interpolationIsPerspectiveCorrect() {
        func project(_ p: SIMD3<Float>) -> SIMD3<Float> { [500 * p.x / p.z + 100, 500 * p.y / p.z + 100, 1 / p.z] }
        let a = SIMD3<Float>(-20, -20, 100), b = SIMD3<Float>(60, -20, 300), c = SIMD3<Float>(-20, 60, 100)
        let t = ScreenTriangle(p0: project(a), p1: project(b), p2: project(c), source: 0)
        let probe = BarycentricProbe()
        var image = SceneFixtures.background()
        var depth = DepthBuffer(width: 200, height: 200)
        Rasterizer.rasterize([t], shader: ProbeShader(probe: probe, width: 200), color: &image, depth: &depth)
        // The 3D point 0.25 a + 0.5 b + 0.25 c.
        let p = a * 0.25 + b * 0.5 + c * 0.25
        let s = project(p)
        let x = Int(s.x.rounded()), y = Int(s.y.rounded())
        // Read back through the colour (linear light, 8-bit sRGB): invert the encoding roughly.
        let px = image[x, y]
        func lin(_ v: UInt8) -> Float { let c = Float(v) / 255; return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4) }
        let bary = SIMD3<Float>(lin(px.r), lin(px.g), lin(px.b))
        // Half a pixel of position error moves the barycentrics by about 0.02 here.
        #expect(abs(bary.y - 0.5) < 0.03, "\(bary)")
        #expect(abs(bary.x - 0.25) < 0.03 && abs(bary.z - 0.25) < 0.03, "\(bary)")
    }

    @Test func blendingIsInLinearLight() {
        var image = SceneFixtures.background(10, 10)
        var depth = DepthBuffer(width: 10, height: 10)
        let cover = ScreenTriangle(p0: [-5, -5, 0.01], p1: [30, -5, 0.01], p2: [-5, 30, 0.01], source: 0)
        Rasterizer.rasterize([cover], shader: FlatShader(color: [1, 0, 0]), color: &image, depth: &depth)
        let front = ScreenTriangle(p0: [-5, -5, 0.02], p1: [30, -5, 0.02], p2: [-5, 30, 0.02], source: 0)
        Rasterizer.rasterize([front], shader: FlatShader(color: [1, 1, 1], opacity: 0.5, writesDepth: false), color: &image, depth: &depth)
        // 0.5 red + 0.5 white = (1, 0.5, 0.5) linear = (255, 188, 188) sRGB.
        #expect(image[3, 3] == (255, 188, 188))
        #expect(abs((depth.depth(x: 3, y: 3) ?? 0) - 100) < 1e-3, "the translucent layer did not write depth")
    }

    @Test func depthOnlyShaderHidesLaterSurfacesWithoutColour() {
        var image = SceneFixtures.background(10, 10, 7)
        var depth = DepthBuffer(width: 10, height: 10)
        let occluder = ScreenTriangle(p0: [-5, -5, 0.02], p1: [30, -5, 0.02], p2: [-5, 30, 0.02], source: 0)
        Rasterizer.rasterize([occluder], shader: DepthOnlyShader(), color: &image, depth: &depth)
        #expect(image[2, 2] == (7, 7, 7))
        let behind = ScreenTriangle(p0: [-5, -5, 0.01], p1: [30, -5, 0.01], p2: [-5, 30, 0.01], source: 0)
        Rasterizer.rasterize([behind], shader: FlatShader(color: [1, 1, 1]), color: &image, depth: &depth)
        #expect(image[2, 2] == (7, 7, 7))
        // Clearing empties only what was written, and resizing works.
        depth.clear(width: 10, height: 10)
        #expect(depth.values.allSatisfy { $0 == 0 })
    }

    @Test func degenerateAndOffscreenTrianglesAreSkipped() {
        var image = SceneFixtures.background(10, 10)
        var depth = DepthBuffer(width: 10, height: 10)
        let line = ScreenTriangle(p0: [0, 0, 1], p1: [5, 5, 1], p2: [9, 9, 1], source: 0)
        let away = ScreenTriangle(p0: [-100, -100, 1], p1: [-50, -100, 1], p2: [-100, -50, 1], source: 0)
        let huge = ScreenTriangle(p0: [-1e30, 0, 1], p1: [1e30, 0, 1], p2: [0, .infinity, 1], source: 0)
        Rasterizer.rasterize([line, away, huge], shader: FlatShader(color: [1, 1, 1]), color: &image, depth: &depth)
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }
}

#if canImport(Glibc)
import Glibc
#endif
