/// Vertex normals for meshes that come without them: the sum of the unnormalised face normals
/// (cross products, so larger triangles weigh more) of the triangles sharing each vertex.
/// Vertices with no non-degenerate triangle get +z so the result is always unit length.
public enum NormalGenerator {
    public static func vertexNormals(positions: [SIMD3<Float>], indices: [UInt32]) -> [SIMD3<Float>] {
        var acc = [SIMD3<Float>](repeating: .zero, count: positions.count)
        var t = 0
        while t + 2 < indices.count {
            let a = Int(indices[t]), b = Int(indices[t + 1]), c = Int(indices[t + 2])
            let n = simdCross(positions[b] - positions[a], positions[c] - positions[a])
            acc[a] += n; acc[b] += n; acc[c] += n
            t += 3
        }
        return acc.map { n in
            let l = simdLength(n)
            return l > 0 && l.isFinite ? n / l : SIMD3<Float>(0, 0, 1)
        }
    }
}
