import Foundation
@testable import GlassesCatalogue
import Meshes
import Testing

struct GlassesGeneratorTests {
    /// The generated lenses have the ISO 8624 box: A wide, DBL apart; temples are as long as declared.
    @Test(arguments: GlassesStyle.allCases)
    func lensBoxBridgeAndTempleMatchTheSize(style: GlassesStyle) throws {
        let size = GlassesSize(lensWidth: 52, bridge: 18, templeLength: 140)
        let mesh = GlassesGenerator.generate(style: style, size: size)
        let lenses = try #require(mesh.primitives.first { $0.name == "lenses" })
        let left = lenses.positions.filter { $0.x > 0 }, right = lenses.positions.filter { $0.x < 0 }
        let leftMin = left.map(\.x).min()!, leftMax = left.map(\.x).max()!
        // Lens edges sit a fraction of a millimetre into the rim groove, outside the box.
        #expect(abs((leftMax - leftMin) - size.lensWidth) < 1.2, "\(style) lens width \(leftMax - leftMin)")
        #expect(abs(2 * leftMin - size.bridge) < 1.2, "\(style) bridge \(2 * leftMin)")
        #expect(abs(right.map(\.x).max()! + leftMin) < 1e-3, "mirror symmetric")
        let canonical = GlassesNormalizer.normalize(mesh.transformed(by: .scaling(0.001)))
        #expect(canonical.scale == .metric)
        #expect(abs(canonical.regions.templeLength - 0.96 * size.templeLength) < 0.06 * size.templeLength,
                "\(style) temple reach \(canonical.regions.templeLength)")
        #expect(canonical.regions.leftHinge.x > size.bridge / 2 + size.lensWidth)
        #expect(abs(canonical.regions.bridge.x) < 1e-3 && canonical.regions.bridge.y > -5)
        // Closed, consistently wound surfaces: every normal agrees with its triangle's winding.
        for p in mesh.primitives {
            var t = 0, bad = 0
            while t < p.indices.count {
                let a = p.positions[Int(p.indices[t])], b = p.positions[Int(p.indices[t + 1])], c = p.positions[Int(p.indices[t + 2])]
                if simdDot(simdCross(b - a, c - a), p.normals[Int(p.indices[t])] + p.normals[Int(p.indices[t + 1])] + p.normals[Int(p.indices[t + 2])]) < 0 { bad += 1 }
                t += 3
            }
            #expect(bad == 0, "\(style) \(p.name)")
        }
    }

    @Test func sizeCodesRoundTrip() {
        let size = GlassesSize(lensWidth: 52, bridge: 18, templeLength: 140)
        #expect(size.code == "52□18-140")
        #expect(GlassesSize(code: "52□18-140") == size && GlassesSize(code: "52-18-140") == size)
        #expect(GlassesSize(code: "52□18") == nil && GlassesSize(code: "a□b-c") == nil)
    }

    @Test func variantsReplaceFrameAndLensMaterials() {
        let mesh = GlassesGenerator.generate(style: .aviator, size: GlassesSize(lensWidth: 58, bridge: 14, templeLength: 135))
        let silver = GlassesVariant.standard(for: .aviator)[1]
        let out = silver.apply(to: mesh)
        let frame = out.materials.first { $0.name == "frame" }!, lens = out.materials.first { $0.name == "lens" }!
        #expect(frame.metallic == 1 && abs(frame.baseColor.x - 0.686) < 0.01)
        #expect(lens.isLens && lens.transmission == 1 && lens.baseColor.x < 0.05)
        #expect(ColorHex.linear("#ffffff") == [1, 1, 1] && ColorHex.linear("#zzzzzz") == nil && ColorHex.linear("#fff") == nil)
    }

    /// The rims and lens edges follow the outline's chords: 48 points placed by arc length and
    /// turning keep every chord within 0.1 mm of the dense outline, also at a rectangle's corners
    /// (where 48 points at equal arc length were 0.17 mm off).
    @Test(arguments: GlassesStyle.allCases)
    func outlineChordsStayOnTheShape(style: GlassesStyle) {
        let coarse = LensOutline.points(style: style, lensWidth: 52, count: 48)
        let dense = LensOutline.points(style: style, lensWidth: 52, count: 2000)
        var worst: Float = 0
        for p in dense {
            var nearest = Float.infinity
            for i in coarse.indices {
                let a = coarse[i], ab = coarse[(i + 1) % coarse.count] - a
                let t = max(0, min(1, ((p - a) * ab).sum() / max((ab * ab).sum(), 1e-12)))
                let q = a + ab * t - p
                nearest = min(nearest, (q * q).sum())
            }
            worst = max(worst, nearest.squareRoot())
        }
        #expect(worst < 0.1, "\(style): \(worst) mm")
    }
}
