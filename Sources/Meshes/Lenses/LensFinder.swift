import Foundation

/// Finds the lenses of a glasses model in the canonical glasses frame (millimetres, +z out of the
/// front, see `CanonicalGlasses`) whatever their material says, and makes them see-through.
///
/// Shops' models mark lenses in four ways, tried in this order per part (primitive):
/// 1. by material: `KHR_materials_transmission`, or a BLEND alpha below 1 on a part at the front;
/// 2. by name: a lens word in the part's or its material's name (`LensNames`), on a part at the front;
/// 3. by geometry: a thin surface (depth under half its height and width) that covers the point in
///    front of an eye (x = ±¼ of the frame width, y = 0, the front's vertical centre) while the
///    other parts leave that point open and enclose it in at least three of four directions (a rim,
///    or a half rim). A frame that covers the eye point itself (a pixel-art "thug life" plate) or
///    a solid block is not a lens.
/// A user or catalogue list of names (`named`) replaces 1's alpha rule, 2 and 3: exactly the parts
/// named (by part or material name) are lenses, besides transmissive materials, which the renderer
/// always draws as lenses.
///
/// A lens whose material was opaque is drawn as a clean lens tinted by its base colour: transmission
/// 1, roughness at most 0.1 (polished), and its tint lifted to a maximum channel of at least 0.3
/// (linear), so a black "opaque" lens becomes a dark sunglass lens that still shows the eyes —
/// the try-on is useless otherwise. A material shared with non-lens parts is copied, not changed.
public enum LensFinder {
    /// Tint floor (linear, brightest channel) for lenses whose material was opaque: about 30 % of
    /// light through, a dark category-2 sunglass lens.
    public static let minimumTint: Float = 0.3

    public struct Result: Sendable {
        public var glasses: CanonicalGlasses
        public var lenses: [LensFinding]
        /// Names in `named` that matched no part or material.
        public var unmatchedNames: [String]
    }

    public static func find(in glasses: CanonicalGlasses, named: [String] = []) -> Result {
        let mesh = glasses.mesh
        guard let box = mesh.bounds else { return Result(glasses: glasses, lenses: [], unmatchedNames: named) }
        let depth = box.max.z - box.min.z
        let frameWidth = box.max.x - box.min.x
        var evidence = [LensEvidence?](repeating: nil, count: mesh.primitives.count)
        var matched = Set<String>()
        let lowered = named.map { $0.lowercased() }

        func partBounds(_ p: MeshPrimitive) -> (min: SIMD3<Float>, max: SIMD3<Float>)? {
            guard let f = p.positions.first else { return nil }
            return p.positions.reduce((f, f)) { (pointwiseMin($0.0, $1), pointwiseMax($0.1, $1)) }
        }
        // At the front: near z = 0 and shallow, not a whole frame with its temples.
        func isFrontal(_ b: (min: SIMD3<Float>, max: SIMD3<Float>)) -> Bool {
            b.max.z >= -25 && (b.max.z - b.min.z) <= max(25, 0.3 * depth)
        }
        let bounds = mesh.primitives.map(partBounds)

        for (i, p) in mesh.primitives.enumerated() {
            let m = mesh.materials[p.materialIndex]
            if m.transmission > 0 { evidence[i] = .material(String(format: "KHR_materials_transmission %.2f", m.transmission)); continue }
            if !named.isEmpty {
                let base = p.name.split(separator: "#").first.map(String.init) ?? p.name
                for (k, n) in lowered.enumerated() where n == p.name.lowercased() || n == base.lowercased() || n == m.name.lowercased() {
                    evidence[i] = .named(named[k]); matched.insert(named[k])
                }
                continue
            }
            guard let b = bounds[i], isFrontal(b) else { continue }
            if m.alphaMode == .blend && m.baseColor.w < 1 {
                evidence[i] = .material(String(format: "alpha %.2f (BLEND)", m.baseColor.w)); continue
            }
            if let word = LensNames.lensWord(in: p.name) ?? LensNames.lensWord(in: m.name) { evidence[i] = .name(word) }
        }

        // Geometry: thin frontal pieces covering an eye point inside a rim opening. Pieces, not whole
        // primitives: one primitive often holds the frame, the lenses and the temples.
        var lensPieces: [Int: [(triangles: [Int], description: String)]] = [:]
        if named.isEmpty {
            struct Piece { var primitive: Int; var triangles: [Int]; var footprint: FrontFootprint; var candidate: Bool }
            var pieces: [Piece] = []
            let eyes: [(x: Float, side: String)] = [(0.25 * frameWidth, "left"), (-0.25 * frameWidth, "right")]
            for (i, p) in mesh.primitives.enumerated() where evidence[i] == nil {
                for triangles in SurfaceComponents.of(p) {
                    var f = FrontFootprint(boundsMin: box.min, boundsMax: box.max)
                    f.add(p, triangles: triangles)
                    var lo = SIMD3<Float>(repeating: .infinity), hi = -lo
                    for t in triangles { for k in 0..<3 { let v = p.positions[Int(p.indices[3 * t + k])]; lo = pointwiseMin(lo, v); hi = pointwiseMax(hi, v) } }
                    let e = hi - lo
                    let thin = e.z <= 0.5 * min(e.x, e.y) && min(e.x, e.y) >= 10
                    let candidate = isFrontal((lo, hi)) && thin && eyes.contains { f.coversDisc(x: $0.x, y: 0, radius: 3) }
                    pieces.append(Piece(primitive: i, triangles: triangles, footprint: f, candidate: candidate))
                }
            }
            var frame = FrontFootprint(boundsMin: box.min, boundsMax: box.max)
            for (i, p) in mesh.primitives.enumerated() where evidence[i] != nil && !mesh.materials[p.materialIndex].isTranslucent {
                frame.add(p, triangles: Array(0..<p.triangleCount)) // an opaque part named a lens is still no rim
            }
            for piece in pieces where !piece.candidate { frame.formUnion(piece.footprint) }
            for piece in pieces where piece.candidate {
                let sides = eyes.filter { eye in
                    piece.footprint.coversDisc(x: eye.x, y: 0, radius: 3) && !frame.isCovered(x: eye.x, y: 0)
                        && frame.enclosingDirections(x: eye.x, y: 0, reach: 0.3 * frameWidth) >= 3
                }.map(\.side)
                if !sides.isEmpty {
                    lensPieces[piece.primitive, default: []].append(
                        (piece.triangles, "thin surface spanning the \(sides.joined(separator: " and ")) rim opening\(sides.count > 1 ? "s" : "")"))
                }
            }
        }

        var out = glasses
        var lensMaterial: [Int: Int] = [:]
        var findings: [LensFinding] = []
        func lensMaterialIndex(_ original: Int) -> Int {
            if let m = lensMaterial[original] { return m }
            out.mesh.materials.append(lens(from: mesh.materials[original]))
            lensMaterial[original] = out.mesh.materials.count - 1
            return out.mesh.materials.count - 1
        }
        for (i, e) in evidence.enumerated() {
            guard let e else { continue }
            let original = mesh.primitives[i].materialIndex
            findings.append(LensFinding(part: mesh.primitives[i].name, material: mesh.materials[original].name, evidence: e, primitiveIndex: i))
            if mesh.materials[original].transmission > 0 { continue }
            out.mesh.primitives[i].materialIndex = lensMaterialIndex(original)
        }
        // Lens pieces: a whole primitive changes material; a piece of one becomes its own primitive.
        var kept: [MeshPrimitive] = []
        var added: [MeshPrimitive] = []
        for (i, p) in out.mesh.primitives.enumerated() {
            guard let found = lensPieces[i] else { kept.append(p); continue }
            let lensTriangles = Set(found.flatMap(\.triangles))
            let material = lensMaterialIndex(p.materialIndex)
            if lensTriangles.count == p.triangleCount {
                var whole = p
                whole.materialIndex = material
                kept.append(whole)
                findings.append(LensFinding(part: p.name, material: mesh.materials[p.materialIndex].name,
                                            evidence: .geometry(found[0].description), primitiveIndex: i))
                continue
            }
            kept.append(p.subset(triangles: (0..<p.triangleCount).filter { !lensTriangles.contains($0) }, name: p.name))
            for (k, piece) in found.enumerated() {
                var l = p.subset(triangles: piece.triangles, name: p.name + " lens \(k + 1)")
                l.materialIndex = material
                findings.append(LensFinding(part: l.name, material: mesh.materials[p.materialIndex].name,
                                            evidence: .geometry(piece.description), primitiveIndex: nil))
                added.append(l)
            }
        }
        out.mesh.primitives = kept + added
        for k in findings.indices where findings[k].primitiveIndex == nil {
            findings[k].primitiveIndex = out.mesh.primitives.firstIndex { $0.name == findings[k].part }
        }
        return Result(glasses: out, lenses: findings, unmatchedNames: named.filter { !matched.contains($0) && $0.lowercased() != "none" })
    }

    /// The see-through version of a lens part's material.
    static func lens(from m: Material) -> Material {
        var l = m
        l.name = m.name + " (lens)"
        l.transmission = 1
        l.metallic = 0
        if m.alphaMode == .blend && m.baseColor.w < 1 { return l } // the author's transparency stays
        l.alphaMode = .opaque
        l.roughness = min(m.roughness, 0.1)
        var tint = SIMD3<Float>(m.baseColor.x, m.baseColor.y, m.baseColor.z)
        let brightest = max(tint.x, tint.y, tint.z)
        if brightest < minimumTint { tint = brightest > 0 ? tint * (minimumTint / brightest) : SIMD3(repeating: minimumTint) }
        l.baseColor = SIMD4(tint.x, tint.y, tint.z, 1)
        return l
    }
}
