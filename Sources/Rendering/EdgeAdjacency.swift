import Meshes

/// For every triangle edge of a primitive, the triangle on the other side of it, found on welded
/// positions (vertices split for UV or normal seams still join). Edge k of triangle t runs from
/// corner k to corner k+1; the neighbour is −1 at an open boundary or a non-manifold edge (three
/// or more triangles). The renderer anti-aliases an edge when its two sides face differently —
/// a silhouette — or when it has no neighbour, except where three or more triangles of the whole
/// mesh meet (`contacts`: parts touching, within a primitive or across primitives).
public enum EdgeAdjacency {
    public static func neighbours(_ p: MeshPrimitive, weldTolerance: Float) -> [SIMD3<Int32>] {
        let welded = weld(p.positions, tolerance: weldTolerance)
        let count = p.triangleCount
        var result = [SIMD3<Int32>](repeating: SIMD3<Int32>(repeating: -1), count: count)
        var firstSide: [UInt64: Int32] = [:] // edge -> 3 * triangle + k, or -2 once non-manifold
        firstSide.reserveCapacity(count * 2)
        for t in 0..<count {
            for k in 0..<3 {
                let a = welded[Int(p.indices[3 * t + k])], b = welded[Int(p.indices[3 * t + (k + 1) % 3])]
                if a == b { continue }
                let key = edgeKey(a, b)
                if let other = firstSide[key] {
                    if other >= 0 {
                        let ot = Int(other / 3), ok = Int(other % 3)
                        result[t][k] = Int32(ot)
                        result[ot][ok] = Int32(t)
                        firstSide[key] = Int32(-(3 * t + k) - 3) // remember the pair for the non-manifold case
                    } else {
                        // A third triangle: the edge is non-manifold; treat it as open on all sides.
                        let paired = Int(-(other + 3))
                        let pt = paired / 3, pk = paired % 3
                        let mate = result[pt][pk]
                        result[pt][pk] = -1
                        if mate >= 0 {
                            for mk in 0..<3 where result[Int(mate)][mk] == Int32(pt) { result[Int(mate)][mk] = -1 }
                        }
                    }
                } else {
                    firstSide[key] = Int32(3 * t + k)
                }
            }
        }
        return result
    }

    /// Per primitive and triangle, a mask of the edges (bit k: corner k to k+1) where three or more
    /// triangles of the whole mesh meet, positions welded across its primitives: where separate
    /// parts touch (blocks stacked face to face, a shell drawn twice). The renderer never
    /// anti-aliases them.
    ///
    /// Why (issue 23): each part of facefit_glasses3 (111 boxes, one primitive each) is closed, so
    /// per primitive every box outline is a silhouette. Its anti-aliased pixels are blended with
    /// what is behind when the box is drawn (the backdrop, a side face) and the touching neighbour,
    /// drawn later, ties in depth and cannot cover the uncovered share: a light grid a pixel wide
    /// over the black frame at every yaw, which three.js (WebGL, antialias off) and the same view
    /// with --no-antialiasing do not show. The model's own outline is still anti-aliased: there
    /// only two triangles meet.
    public static func contacts(_ primitives: [MeshPrimitive], weldTolerance: Float) -> [[UInt8]] {
        let welded = weld(primitives.flatMap(\.positions), tolerance: weldTolerance)
        var uses: [UInt64: Int32] = [:]
        var keys: [[SIMD3<UInt64>]] = []
        var base = 0
        for p in primitives {
            var perTriangle = [SIMD3<UInt64>](repeating: SIMD3<UInt64>(repeating: .max), count: p.triangleCount)
            for t in 0..<p.triangleCount {
                for k in 0..<3 {
                    let a = welded[base + Int(p.indices[3 * t + k])], b = welded[base + Int(p.indices[3 * t + (k + 1) % 3])]
                    if a == b { continue }
                    let key = edgeKey(a, b)
                    perTriangle[t][k] = key
                    uses[key, default: 0] += 1
                }
            }
            keys.append(perTriangle)
            base += p.positions.count
        }
        return keys.map { perTriangle in
            perTriangle.map { edge in
                var mask: UInt8 = 0
                for k in 0..<3 where edge[k] != .max && uses[edge[k], default: 0] >= 3 { mask |= 1 << UInt8(k) }
                return mask
            }
        }
    }

    /// For a closed surface — every non-degenerate edge (welded positions) used exactly once in
    /// each direction, so consistently wound — whether its triangles wind counter-clockwise seen
    /// from outside (positive enclosed volume); nil when the surface is open, non-manifold or
    /// inconsistently wound.
    public static func outwardWinding(_ p: MeshPrimitive, weldTolerance: Float) -> Bool? {
        let welded = weld(p.positions, tolerance: weldTolerance)
        var directed: [UInt64: Int32] = [:]
        directed.reserveCapacity(p.triangleCount * 3)
        var volume: Double = 0
        for t in 0..<p.triangleCount {
            let i = (Int(p.indices[3 * t]), Int(p.indices[3 * t + 1]), Int(p.indices[3 * t + 2]))
            let a = p.positions[i.0], b = p.positions[i.1], c = p.positions[i.2]
            volume += Double(simdDot(a, simdCross(b, c)))
            for (u, v) in [(i.0, i.1), (i.1, i.2), (i.2, i.0)] {
                let wu = welded[u], wv = welded[v]
                if wu == wv { continue }
                directed[UInt64(UInt32(wu)) << 32 | UInt64(UInt32(wv)), default: 0] += 1
            }
        }
        for (key, count) in directed {
            let reverse = (key << 32) | (key >> 32)
            if count != 1 || directed[reverse] != 1 { return nil }
        }
        guard volume != 0, !directed.isEmpty else { return nil }
        return volume > 0
    }

    /// An undirected edge between two welded positions, the same key either way round.
    @inline(__always) static func edgeKey(_ a: Int32, _ b: Int32) -> UInt64 {
        UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b)))
    }

    /// One id per distinct position (within `tolerance`).
    static func weld(_ positions: [SIMD3<Float>], tolerance weldTolerance: Float) -> [Int32] {
        let tolerance = max(weldTolerance, 1e-12)
        var welded = [Int32](repeating: 0, count: positions.count)
        var ids: [SIMD3<Int32>: Int32] = [:]
        ids.reserveCapacity(positions.count)
        for (i, v) in positions.enumerated() {
            let q = v / tolerance
            let key = SIMD3<Int32>(Int32(clamping: Int(q.x.rounded())), Int32(clamping: Int(q.y.rounded())), Int32(clamping: Int(q.z.rounded())))
            if let id = ids[key] { welded[i] = id } else { let id = Int32(ids.count); ids[key] = id; welded[i] = id }
        }
        return welded
    }
}
