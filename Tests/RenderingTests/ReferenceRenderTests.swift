import Foundation
import GlassesCatalogue
import Imaging
import Meshes
import Rendering
import Testing

/// Speed work on the rasteriser must not change the picture. `Fixtures/*.ppm` are the glasses'
/// screen boxes of two try-on scenes rendered by the reference rasteriser
/// (`SceneRenderer.usesReferenceRasterizer`: one fragment at a time): the renderer must give the same
/// pixels up to float rounding — a handful of pixels where two touching parts of the frame are at
/// the same depth may flip from one to the other. To re-render them, set `usesReferenceRasterizer` on
/// the renderer in `render` and write each glasses box out as a PPM (`NetPBM.encode`).
///
/// History: the first fixtures were rendered before the November 2026 speed-up (per-pixel
/// barycentrics, both faces of the head occluder drawn). They were re-rendered on 2026-11-22 when
/// the generated lenses got wide inner triangles (`GlassesGenerator`): the new mesh moved the lens's
/// depth near the rim by a fraction of a millimetre and flipped 10 and 18 pixels at the rim's inner
/// edge between lens and rim; no other pixel moved by more than 2 levels. They were re-rendered
/// again the same day when the outlines went from 72 points at equal arc length to 48 points
/// placed by arc length and turning (`LensOutline`): the rims moved by up to 0.08 mm, which moves
/// their anti-aliased edges at this scale (the aviator: about 1,000 of 26,700 channels by more than
/// 2 levels; the rectangular frame stayed within the tolerance). They were re-rendered a third time
/// when the tubes' cross-section went from eight points to four (`MeshBuilder.roundedProfile`):
/// the rims and temples changed shape by a fraction of a millimetre (the rectangular frame's box
/// grew by one row; 5,700 of 23,500 and 2,100 of 26,700 channels moved by more than 2 levels).
/// A fourth time for issue 23's geometric specular anti-aliasing (`PrimitiveView.normalFilter`):
/// the thin tubes' highlights and mirror reflections are averaged over each pixel's spread of
/// normals (5,519 of 23,500 and 2,704 of 26,700 channels moved by more than 2 levels; isolated light
/// pixels by the SpeckleTests measure went from 30 to 20 and from 22 to 11).
/// A fifth time when `TriangleEdges` took each edge's offset from its midpoint instead of from
/// cross products of pixel coordinates (their rounding, ~0.03 px, moved 1/z of sub-pixel triangles
/// by up to 9 %): pixel centres within that rounding of an edge, and depth ties between the rims and
/// the lenses in their grooves, flipped (64 of 23,961 and 228 of 26,712 channels moved by more than
/// 2 levels; isolated light pixels 20 to 19 and 11 to 6).
/// A sixth time when filtered triangles' highlights took the lobe of the widened roughness
/// (`Shading.widened`) instead of the material's sharp lobe faded by the filter: the thin tubes'
/// key-light highlight is spread over the pixel as a broad sheen (3,878 of 23,961 and 1,670 of
/// 26,712 channels moved by more than 2 levels; isolated light pixels 19 to 15 and 6 to 6).
struct ReferenceRenderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The benchmark's scene at 640x360: glasses three-quarter on, 500 mm away, on the head occluder.
    static func render(_ style: GlassesStyle, lighting: Lighting) -> (image: RGBImage, box: PixelRect)? {
        let width = 640, height = 360
        let f = Float(width) / 2 / tanf(30 * .pi / 180)
        var camera = PinholeCamera(fx: f, fy: f, cx: Float(width - 1) / 2, cy: Float(height - 1) / 2, width: width, height: height)
        camera.lookAt(eye: [180, 60, 470], target: [0, 0, -40], up: [0, 1, 0])
        let faceToWorld = Transform3D.translation([0, 0, -40]) * Transform3D.rotation(axis: [1, 0, 0], radians: .pi)
        let glassesOnFace = Transform3D.translation([0, 0, -14]) * Transform3D.rotation(axis: [1, 0, 0], radians: .pi)
        let glasses = RenderableMesh(GlassesGenerator.generate(style: style, size: GlassesSize(lensWidth: 52, bridge: 18, templeLength: 140)))
        let renderer = SceneRenderer(lighting: lighting)
        var image = RGBImage(width: width, height: height, fill: (120, 110, 100))
        renderer.beginFrame(width: width, height: height)
        guard let box = renderer.screenBounds(of: glasses, modelToWorld: faceToWorld * glassesOnFace, camera: camera) else { return nil }
        renderer.scissor = box
        renderer.drawOccluder(RenderableMesh(HeadOccluder.mesh()), modelToWorld: faceToWorld, camera: camera, into: &image)
        renderer.draw(glasses, modelToWorld: faceToWorld * glassesOnFace, camera: camera, into: &image)
        return (image, box)
    }

    static var shLighting: Lighting {
        let sh = IrradianceSH.directional([0.3, -0.7, -0.5], color: [0.9, 0.8, 0.7], ambient: [0.2, 0.22, 0.25])
        return Lighting(ambient: .zero, direction: [0.3, -0.7, -0.5], color: [0.9, 0.8, 0.7], sky: [0.6, 0.7, 0.9],
                        ground: [0.2, 0.2, 0.2], irradiance: sh)
    }

    @Test(arguments: [("rectangular-studio", GlassesStyle.rectangular, false), ("aviator-sh", .aviator, true)])
    func rendersTheReferencePixels(name: String, style: GlassesStyle, sh: Bool) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("\(name).ppm")))
        guard case .rgb(let reference) = try NetPBM.decode(bytes) else { Issue.record("\(name).ppm is not an RGB image"); return }
        let (image, box) = try #require(Self.render(style, lighting: sh ? Self.shLighting : .studio))
        #expect(box.lastX - box.x + 1 == reference.width && box.lastY - box.y + 1 == reference.height, "glasses box \(box)")
        guard box.lastX - box.x + 1 == reference.width && box.lastY - box.y + 1 == reference.height else { return }
        var differing = 0, large = 0, total = 0
        for y in 0..<reference.height {
            for x in 0..<reference.width {
                let a = reference[x, y], b = image[box.x + x, box.y + y]
                for (u, v) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] {
                    let d = abs(Int(u) - Int(v))
                    if d > 0 { differing += 1 }
                    if d > 2 { large += 1 }
                    total += 1
                }
            }
        }
        // Rounding moves a channel by a level or two; a depth tie flips at most a few pixels.
        #expect(large <= total / 1000, "\(large) of \(total) channels differ by more than 2 levels")
        #expect(differing <= total / 200, "\(differing) of \(total) channels differ")
        // Something was drawn over the occluder-limited box: not a trivially passing comparison.
        var glassesPixels = 0
        for y in 0..<reference.height { for x in 0..<reference.width where reference[x, y] != (120, 110, 100) { glassesPixels += 1 } }
        #expect(glassesPixels > reference.width * reference.height / 10)
    }
}
