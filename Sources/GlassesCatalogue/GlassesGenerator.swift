import Meshes

/// Builds a glasses frame from a style and an ISO 8624 size, in the canonical glasses frame
/// (millimetres, +x towards the wearer's left, +y up, front at z = 0, temples towards −z; see
/// `CanonicalGlasses`). The lens boxes sit DBL apart, each A wide; rims are swept rounded
/// sections (thick acetate or thin wire), lenses are spherical caps (radius 150 mm, about a
/// 3.5-dioptre base curve) inset into the rim groove, end pieces carry the hinges at the upper
/// third of the rim, and temples run straight back for three quarters of their length, then bend
/// down 40° behind the ear. Meshes are kept light (48-point outlines, 4-sided sections, about
/// 1,500 triangles) so a frame renders within the per-frame budget. Materials: 0 `frame`, 1 `lens` (from `variant`).
public enum GlassesGenerator {
    public static func generate(style: GlassesStyle, size: GlassesSize, variant: GlassesVariant? = nil) -> Mesh {
        let a = size.lensWidth / 2
        let rimWidth: Float = style.isMetal ? 1.6 : 5
        let rimDepth: Float = style.isMetal ? 1.8 : 4.5
        let groove: Float = style.isMetal ? 0.5 : 0.8
        let outline = LensOutline.points(style: style, lensWidth: size.lensWidth)
        let centreX = size.bridge / 2 + a
        let lensCentreY: Float = 0
        var rims = MeshBuilder(), lenses = MeshBuilder(), bridge = MeshBuilder(), temples = MeshBuilder()
        var hingePoints: [SIMD3<Float>] = []

        for side in [Float(1), -1] {
            let pts = outline.map { SIMD2<Float>(side * (centreX + $0.x), lensCentreY + $0.y) }
            let centre = SIMD2<Float>(side * centreX, lensCentreY)
            let n = pts.count
            var normals2: [SIMD2<Float>] = []
            for i in 0..<n {
                let d = pts[(i + 1) % n] - pts[(i + n - 1) % n]
                var nn = SIMD2<Float>(d.y, -d.x)
                nn /= max((nn * nn).sum().squareRoot(), 1e-9)
                if ((pts[i] - centre) * nn).sum() < 0 { nn = -nn }
                normals2.append(nn)
            }
            // Rim: centre line offset outward so the lens edge sits `groove` deep in it.
            let offset = rimWidth / 2 - groove
            let path = (0..<n).map { SIMD3<Float>(pts[$0].x + normals2[$0].x * offset, pts[$0].y + normals2[$0].y * offset, -rimDepth / 2) }
            let sideAxes = normals2.map { SIMD3<Float>($0.x, $0.y, 0) }
            let upAxes = [SIMD3<Float>](repeating: [0, 0, 1], count: n)
            rims.sweep(path: path, side: sideAxes, up: upAxes,
                       profile: MeshBuilder.roundedProfile(width: rimWidth, height: rimDepth), closed: true)

            // Lens: a spherical cap filling the outline, its edge in the rim groove.
            let radius: Float = 150
            let edge = (0..<n).map { pts[$0] + normals2[$0] * (groove * 0.6) }
            let reach = edge.map { (($0 - centre) * ($0 - centre)).sum() }.max() ?? 1
            func lensVertex(_ q: SIMD2<Float>) -> UInt32 {
                let r = q - centre
                let r2 = (r * r).sum()
                let z = -rimDepth / 2 + max(0, reach - r2) / (2 * radius)
                return lenses.vertex([q.x, q.y, z], [r.x / radius, r.y / radius, 1])
            }
            // Few, wide triangles inside, the full outline only at the edge: a software rasteriser
            // pays per triangle and per row, and a fan of slivers from the centre cost a row per few
            // pixels. Two 12-point rings (at 45 % and 85 % of the way out) keep the facets within
            // about 0.15 mm of the cap; the outer band fans each inner point out to the edge points
            // nearest it.
            let hub = lensVertex(centre)
            let spokes = 12, perSpoke = n / spokes
            precondition(n % spokes == 0 && perSpoke % 2 == 0, "lens outline of \(n) points does not split into \(spokes) spokes")
            let middle = (0..<spokes).map { lensVertex(centre + (edge[$0 * perSpoke] - centre) * 0.45) }
            let inner = (0..<spokes).map { lensVertex(centre + (edge[$0 * perSpoke] - centre) * 0.85) }
            let outer = edge.map { lensVertex($0) }
            for j in 0..<spokes {
                let k = (j + 1) % spokes
                lenses.triangle(hub, middle[j], middle[k])
                lenses.triangle(middle[j], inner[j], inner[k])
                lenses.triangle(middle[j], inner[k], middle[k])
                let first = j * perSpoke, half = first + perSpoke / 2
                for i in first..<half { lenses.triangle(inner[j], outer[i], outer[i + 1]) }
                for i in half..<(first + perSpoke) { lenses.triangle(inner[k], outer[i], outer[(i + 1) % n]) }
                lenses.triangle(inner[j], outer[half], inner[k])
            }

            // End piece and hinge at the upper third of the temporal rim.
            let hingeY = lensCentreY + 0.45 * a * style.heightRatio
            let temporal = path.filter { abs($0.y - hingeY) < 3 }.map { $0.x * side }.max() ?? (centreX + a)
            let xo = side * temporal
            let hinge = SIMD3<Float>(xo + side * 3.2, hingeY, -9)
            let endPath: [SIMD3<Float>] = [[xo - side * 1, hingeY, -rimDepth / 2], [xo + side * 2.6, hingeY, -rimDepth / 2 - 0.8],
                                           [xo + side * 3.2, hingeY, -5], hinge]
            sweepHorizontal(&rims, path: endPath, side: side, width: style.isMetal ? 2 : 3.4, height: style.isMetal ? 2.6 : 5)
            hingePoints.append(hinge)

            // Temple: straight back, then bent down behind the ear.
            var templePath: [SIMD3<Float>] = []
            let straight = 0.75 * size.templeLength, bend = size.templeLength - straight
            let steps = 20
            for k in 0...steps {
                let s = size.templeLength * Float(k) / Float(steps)
                if s <= straight {
                    templePath.append(hinge + SIMD3<Float>(0, 0, -s))
                } else {
                    // Circular arc turning 40° downwards over the remaining length.
                    let turn = 40 * Float.pi / 180
                    let arcRadius = bend / turn
                    let phi = (s - straight) / arcRadius
                    let start = hinge + SIMD3<Float>(0, 0, -straight)
                    templePath.append(start + SIMD3<Float>(0, -(1 - cosf(phi)) * arcRadius, -sinf(phi) * arcRadius))
                }
            }
            sweepHorizontal(&temples, path: templePath, side: side, width: style.isMetal ? 1.6 : 3, height: style.isMetal ? 2 : 4.5)
        }

        // Bridge: an arched bar between the rims' nasal edges; aviators add a straight brow bar.
        let inner = size.bridge / 2 + (style.isMetal ? 0.5 : 1.5)
        let bridgeY = lensCentreY + 0.18 * a * style.heightRatio
        let arch: [SIMD3<Float>] = (0...12).map { k in
            let x = inner - 2 * inner * Float(k) / 12
            let u = x / inner
            return [x, bridgeY + 2.5 * (1 - u * u), -rimDepth / 2]
        }
        sweepFrontal(&bridge, path: arch, depth: rimDepth, height: style.isMetal ? 1.6 : 4.5)
        if style == .aviator {
            let browY = lensCentreY + 0.82 * a * style.heightRatio
            let reach = size.bridge / 2 + 0.35 * size.lensWidth
            let brow: [SIMD3<Float>] = (0...8).map { k in [reach - 2 * reach * Float(k) / 8, browY, -rimDepth / 2] }
            sweepFrontal(&bridge, path: brow, depth: rimDepth, height: 1.6)
        }

        let v = variant ?? GlassesVariant.standard(for: style)[0]
        var frame = rims
        frame.append(bridge)
        return Mesh(primitives: [frame.primitive(name: "frame", material: 0), temples.primitive(name: "temples", material: 0),
                                 lenses.primitive(name: "lenses", material: 1)],
                    materials: [v.frameMaterial(), v.lensMaterial()])
    }

    /// A bar whose cross-section stays upright (+y) while the path runs in a vertical plane.
    static func sweepHorizontal(_ b: inout MeshBuilder, path: [SIMD3<Float>], side: Float, width: Float, height: Float) {
        var sides: [SIMD3<Float>] = [], ups: [SIMD3<Float>] = []
        for i in path.indices {
            let t = simdNormalize(path[min(i + 1, path.count - 1)] - path[max(i - 1, 0)])
            var s = simdNormalize(simdCross(t, [0, 1, 0]))
            if s.x * side < 0 { s = -s }
            sides.append(s)
            ups.append(simdNormalize(simdCross(s, t)))
        }
        b.sweep(path: path, side: sides, up: ups, profile: MeshBuilder.roundedProfile(width: width, height: height), closed: false)
    }

    /// A bar in the frame front (the bridge): depth along z, height in the front plane.
    static func sweepFrontal(_ b: inout MeshBuilder, path: [SIMD3<Float>], depth: Float, height: Float) {
        var sides: [SIMD3<Float>] = [], ups: [SIMD3<Float>] = []
        for i in path.indices {
            let t = simdNormalize(path[min(i + 1, path.count - 1)] - path[max(i - 1, 0)])
            var u = simdNormalize(simdCross([0, 0, 1], t))
            if u.y < 0 { u = -u }
            sides.append([0, 0, 1])
            ups.append(u)
        }
        b.sweep(path: path, side: sides, up: ups, profile: MeshBuilder.roundedProfile(width: depth, height: height), closed: false)
    }
}

extension MeshBuilder {
    mutating func append(_ other: MeshBuilder) {
        let base = UInt32(positions.count)
        positions += other.positions
        normals += other.normals
        indices += other.indices.map { $0 + base }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
