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

    static func render(_ mesh: Mesh, yaw: Float, width: Int = 640, height: Int = 480, reference: Bool = false) -> RGBImage {
        let bounds = mesh.bounds!
        let turntable = Turntable(bounds: bounds, width: width, height: height)
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
    /// Not yet zero; the bound catches a regression, and the remainder is known, each traced to its
    /// pixel with per-term renders:
    /// - yaw 0, (768, 431): a hole in LensesExterior. The pixel centre lies within 10⁻⁴ px of the
    ///   edge two lens triangles share, and each triangle's edge function, stepped along its row
    ///   from a different start, rounds to just below zero: neither covers it, and the backdrop
    ///   shows through the dark lens.
    /// - yaw 60, three pixels where the lens's top edge meets the rim: the rim's anti-aliased
    ///   silhouette pixel (centre inside, coverage below 1) writes depth and blends with what is in
    ///   the frame when it is drawn, the white earhook far behind, not with the lens that is drawn
    ///   later and then fails the depth test there. Needs the uncovered share kept per pixel for
    ///   the translucent pass (or multisampled coverage), in all three rasterisers.
    /// - yaw 60, (985, 535): one pixel of the white earhook's silhouette line (grazing Fresnel on
    ///   white plastic), 20 levels above its brightest neighbour.
    ///
    /// Where the remainder is (one part left out at a time, yaw 0/25/60): without the rim tube
    /// (Frames) 4/6/4; without LensesExterior 8/21/15; without one earhook 21/29/17. Rougher rims make
    /// more (roughness 0.3: 54/56/29; 0.6: 92/94/65), black metal rims far more (284/242/134): lone
    /// pixels of grazing environment reflection. In `live` the rim beside the lens edge is also broken
    /// by dark lens pixels (the lens edge runs inside the rim groove). Tried and not kept:
    /// averaging the grazing Fresnel where the normal is filtered or shortened (28/28/15), also on
    /// sub-pixel-wide flat facets (no change), depth-testing lenses 0.1 % behind (22/32/14, and the
    /// aviator fixture moved).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: SpeckleTests.khronos), "needs ../shared/data/glasses next to the repository"))
    func khronosSunglassesHaveNoSpeckles() throws {
        let mesh = GlassesNormalizer.normalize(try MeshLoader().load(path: Self.khronos)).mesh
        var total = 0
        for yaw: Float in [0, 25, 60] {
            let found = Speckles.count(Speckles.render(mesh, yaw: yaw, width: 1280, height: 960))
            print("Khronos sunglasses yaw \(yaw): \(found.count) speckles \(found.first)")
            total += found.count
        }
        #expect(total <= 5, "\(total) speckles")
        withKnownIssue("Khronos sunglasses: 5 speckles left at 1280x960 (a lens crack, rim edges blended before the lens, an earhook edge; issue 23 item 5)") {
            #expect(total == 0)
        }
    }

    static let khronos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/glasses/khronos_sunglasses/SunglassesKhronos.glb").path
}
