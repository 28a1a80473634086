import Foundation
import Imaging
import Meshes
import Rendering
import Testing

/// Issue 23 item 5: thin metal rims drawn without isolated light pixels ("speckles") along their edges.
///
/// A speckle is a pixel brighter than all eight neighbours by more than 12 levels and than their
/// median by more than 40 (of 255): a lone dot, not a highlight, which runs along the rim.
enum Speckles {
    static func count(_ image: RGBImage) -> (count: Int, first: [SIMD2<Int>]) {
        let w = image.width, h = image.height
        var luma = [Int](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            luma[i] = (299 * Int(image.pixels[3 * i]) + 587 * Int(image.pixels[3 * i + 1]) + 114 * Int(image.pixels[3 * i + 2])) / 1000
        }
        var n = 0
        var where_: [SIMD2<Int>] = []
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let c = luma[y * w + x]
                var around: [Int] = []
                for dy in -1...1 { for dx in -1...1 where dx != 0 || dy != 0 { around.append(luma[(y + dy) * w + x + dx]) } }
                around.sort()
                if c > around[7] + 12 && c > (around[3] + around[4]) / 2 + 40 {
                    n += 1
                    if where_.count < 8 { where_.append([x, y]) }
                }
            }
        }
        return (n, where_)
    }

    /// A round rim: a thin tube (radius `tube` mm) around a circle of radius `radius` mm in the x-y
    /// plane, with `sides` facets around the tube and smooth normals, as CAD exports of wire frames are.
    static func rim(radius: Float = 24, tube: Float = 0.5, segments: Int = 120, sides: Int = 5) -> MeshPrimitive {
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], indices: [UInt32] = []
        for i in 0..<segments {
            let a = 2 * Float.pi * Float(i) / Float(segments)
            let centre = SIMD3<Float>(radius * cos(a), radius * sin(a), 0)
            let outward = SIMD3<Float>(cos(a), sin(a), 0)
            for j in 0..<sides {
                let b = 2 * Float.pi * Float(j) / Float(sides)
                let n = outward * cos(b) + SIMD3<Float>(0, 0, 1) * sin(b)
                positions.append(centre + n * tube)
                normals.append(n)
            }
        }
        for i in 0..<segments {
            for j in 0..<sides {
                let a = UInt32(i * sides + j), b = UInt32(i * sides + (j + 1) % sides)
                let c = UInt32(((i + 1) % segments) * sides + j), d = UInt32(((i + 1) % segments) * sides + (j + 1) % sides)
                indices += [a, c, b, b, c, d]
            }
        }
        return MeshPrimitive(name: "rim", positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: 0)
    }

    static func render(_ mesh: Mesh, yaw: Float, elevation: Float = 12, width: Int = 640, height: Int = 480, reference: Bool = false) -> RGBImage {
        let bounds = mesh.bounds!
        let turntable = Turntable(bounds: bounds, width: width, height: height, elevationDegrees: elevation)
        var image = Turntable.backdrop(width: width, height: height)
        let renderer = SceneRenderer()
        renderer.usesReferenceRasterizer = reference
        renderer.beginFrame(width: width, height: height)
        renderer.draw(RenderableMesh(mesh), modelToWorld: .identity, camera: turntable.camera(yawDegrees: yaw, width: width, height: height), into: &image)
        return image
    }
}

struct SpeckleTests {
    /// Two thin polished-metal rims side by side, seen from five angles, both rasterisers. Before the
    /// shading filter (`PrimitiveView.normalFilter`) these ten renders held 41, 41, 36, 36, 19, 19,
    /// 5, 5 and (not counted) speckles; after it, 4 in each rasteriser at yaw 70, none elsewhere:
    /// those four were the key light's highlight, the material's 512-exponent lobe faded to a few
    /// per cent by the filter rather than widened. With the widened lobe (`Shading.widened`) none.
    @Test func thinMetalRimsHaveNoSpeckles() {
        var left = Speckles.rim(), right = Speckles.rim()
        left.positions = left.positions.map { $0 + [-27, 0, 0] }
        right.positions = right.positions.map { $0 + [27, 0, 0] }
        let metal = Material(name: "metal", baseColor: [0.8, 0.8, 0.8, 1], metallic: 1, roughness: 0.15)
        let mesh = Mesh(primitives: [left, right], materials: [metal])
        var total = 0
        for yaw: Float in [0, 20, 45, 70, 85] {
            for reference in [false, true] {
                let found = Speckles.count(Speckles.render(mesh, yaw: yaw, reference: reference))
                if found.count > 0 { print("rims yaw \(yaw)\(reference ? " (reference rasteriser)" : ""): \(found.count) speckles at \(found.first)") }
                total += found.count
            }
        }
        #expect(total == 0, "\(total) speckles over ten renders (over 200 before the shading filter)")
    }

    /// The Khronos sunglasses (thin metal rims around transmissive lenses) at three angles, 1280x960:
    /// 129 and 110 speckles at yaw 0 and 25 before the shading filter; 28, 31 and 19 after; 7, 18
    /// and 7 once `TriangleEdges` stopped losing 1/z of sub-pixel rim triangles to rounding. Most of
    /// the 28/31/19 were those: a pixel of a triangle a fraction of a pixel across, behind the lens
    /// by up to 6 %, got a 1/z up to 9 % nearer than any of its corners and showed undimmed through
    /// the dark lens. Then 1, 0 and 4 once highlights (rims, and the clear nose pads' glint, which
    /// lenses now filter too) use the widened lobe instead of a faded sharp one.
    ///
    /// Then, over the ten renders of `poses` (yaw 0/25/60/−25 at 12°, 25 at 35°, 15 at −15°;
    /// 640x480 yaw 0/25/60; the reference rasteriser at yaw 60), 1/0/4/0/0/4/1/3/1 and 4 (18), and
    /// 17 (0 at yaw 0) once a pixel the stepped edge functions reject takes an exact second look
    /// (`TriangleEdges`; issue 23, session 34): (768, 431) at yaw 0 was a hole in LensesExterior, a
    /// pixel centre within 10⁻⁴ px of the edge two lens triangles share, which each triangle's edge
    /// function, stepped along its row from a different start, rounded to just below zero, so the
    /// backdrop showed through the dark lens.
    ///
    /// Not yet zero; the bounds catch a regression. What is left, traced with per-pixel dumps of
    /// the reference rasteriser's fragments:
    /// - yaw 60, (407, 418), (431, 419), (436, 420), in both rasterisers: where the lens's top edge
    ///   meets the rim, the rim's anti-aliased silhouette pixel (centre inside, coverage below 1)
    ///   writes depth and blends with what is in the frame when it is drawn, the white earhook far
    ///   behind, not with the lens drawn later, which then fails the depth test there. A side buffer
    ///   of partly covered pixels that the lens composites into fixed them (branch
    ///   issue23-speckle-s33) but cost 0.1-0.2x of try-on/floor.
    /// - lone light pixels beside opaque silhouettes: a sub-pixel triangle next to a silhouette covers its pixel whole
    ///   (coverage 1, no anti-aliased edge) and its pixel centre lands where the normal is edge-on
    ///   (n·v 0.0002 at (985, 535), yaw 60, the white earhook; 0.14 at (257, 220), 640x480 yaw 25,
    ///   the rim's top edge; 0.06 at (592, 419), yaw 15/−15°, a clear part over the lens), so it
    ///   takes the full grazing mirror reflection: 0.96 linear against 0.65-0.80 around it.
    ///   Shading partly covered pixels at the centroid of their covered part, as GPUs do, changed
    ///   no count but one, up (18 → 19; not kept): none of these pixels is partly covered.
    /// - yaw 15/−15°, (874, 368), and 640x480 yaw 0, (471, 295): a bright line a pixel wide that is
    ///   not a silhouette (no anti-aliased edge; the rim's inner lip beside the dark lens, n·v
    ///   0.84-0.98) drawn as a staircase, so one step's pixel has no bright 8-neighbour.
    ///
    /// Where the remainder was (one part left out at a time, yaw 0/25/60, before the poses):
    /// without the rim tube (Frames) 4/6/4; without LensesExterior 8/21/15; without one earhook 21/29/17. Rougher rims make
    /// more (roughness 0.3: 54/56/29; 0.6: 92/94/65), black metal rims far more (284/242/134): lone
    /// pixels of grazing environment reflection. In `live` the rim beside the lens edge is also broken
    /// by dark lens pixels (the lens edge runs inside the rim groove). Tried and not kept:
    /// averaging the grazing Fresnel where the normal is filtered or shortened (28/28/15, when the
    /// sub-pixel rim triangles' 1/z still put most speckles in front of the lens), also on
    /// sub-pixel-wide flat facets (no change), depth-testing lenses 0.1 % behind (22/32/14, and the
    /// aviator fixture moved).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: SpeckleTests.khronos), "needs ../shared/data/glasses next to the repository"))
    func khronosSunglassesHaveNoSpeckles() throws {
        let mesh = GlassesNormalizer.normalize(try MeshLoader().load(path: Self.khronos)).mesh
        var counts: [String: Int] = [:]
        for pose in Self.poses {
            let found = Speckles.count(Speckles.render(mesh, yaw: pose.yaw, elevation: pose.elevation, width: pose.width, height: pose.height,
                                                       reference: pose.reference))
            let name = "\(pose.width)x\(pose.height) yaw \(pose.yaw) elevation \(pose.elevation)\(pose.reference ? " (reference rasteriser)" : "")"
            print("Khronos sunglasses \(name): \(found.count) speckles \(found.first)")
            counts[name] = found.count
        }
        let total = counts.values.reduce(0, +)
        // The first three poses held 5 (the bound before the poses were added), now 4.
        let first = Self.poses.prefix(3).map { pose in counts["\(pose.width)x\(pose.height) yaw \(pose.yaw) elevation \(pose.elevation)"] ?? 0 }.reduce(0, +)
        #expect(first <= 4, "\(first) speckles at 1280x960 yaw 0, 25, 60")
        #expect(total <= 17, "\(total) speckles: \(counts)")
        withKnownIssue("Khronos sunglasses: 17 speckles left over ten renders (rim edges blended before the lens; edge-on normals of sub-pixel triangles; staircase steps of bright one-pixel lines; issue 23 item 5)") {
            #expect(total == 0)
        }
    }

    /// The poses `khronosSunglassesHaveNoSpeckles` renders: the three first measured (1280x960, yaw
    /// 0, 25, 60 at the turntable's 12° elevation), and others so that the bar is not met by tuning
    /// to them: the other side, looking down and up, half the resolution, and the reference rasteriser.
    static let poses: [(yaw: Float, elevation: Float, width: Int, height: Int, reference: Bool)] = [
        (0, 12, 1280, 960, false), (25, 12, 1280, 960, false), (60, 12, 1280, 960, false), (-25, 12, 1280, 960, false),
        (25, 35, 1280, 960, false), (15, -15, 1280, 960, false),
        (0, 12, 640, 480, false), (25, 12, 640, 480, false), (60, 12, 640, 480, false),
        (60, 12, 1280, 960, true),
    ]

    static let khronos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/glasses/khronos_sunglasses/SunglassesKhronos.glb").path
}
