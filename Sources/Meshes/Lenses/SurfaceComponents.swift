/// Connected pieces of one primitive: triangles joined by shared corners, where corners at the same
/// position count as shared (exporters split vertices at UV and normal seams). A shop's model often
/// holds frame, lenses and temples in one primitive with one material; its lenses are pieces of it.
enum SurfaceComponents {
    /// Triangle indices of each piece, in triangle order.
    static func of(_ p: MeshPrimitive) -> [[Int]] {
        // Weld by position on a 1 µm grid (canonical units are millimetres).
        var representative: [SIMD3<Int32>: Int32] = [:]
        var weld = [Int32](repeating: 0, count: p.positions.count)
        for (i, v) in p.positions.enumerated() {
            let key = SIMD3<Int32>(Int32(clamping: Int((v.x * 1000).rounded())), Int32(clamping: Int((v.y * 1000).rounded())),
                                   Int32(clamping: Int((v.z * 1000).rounded())))
            if let r = representative[key] { weld[i] = r } else { representative[key] = Int32(i); weld[i] = Int32(i) }
        }
        var parent = Array(Int32(0)..<Int32(p.positions.count))
        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x { parent[Int(x)] = parent[Int(parent[Int(x)])]; x = parent[Int(x)] }
            return x
        }
        let triangles = p.indices.count / 3
        for t in 0..<triangles {
            let a = find(weld[Int(p.indices[3 * t])])
            for k in 1..<3 {
                let b = find(weld[Int(p.indices[3 * t + k])])
                if a != b { parent[Int(b)] = a }
            }
        }
        var pieceOfRoot: [Int32: Int] = [:]
        var pieces: [[Int]] = []
        for t in 0..<triangles {
            let r = find(weld[Int(p.indices[3 * t])])
            if let k = pieceOfRoot[r] { pieces[k].append(t) } else { pieceOfRoot[r] = pieces.count; pieces.append([t]) }
        }
        return pieces
    }
}

extension MeshPrimitive {
    /// The primitive reduced to `triangles`, with only the vertices they use.
    func subset(triangles: [Int], name: String) -> MeshPrimitive {
        var remap: [UInt32: UInt32] = [:]
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = []
        var out: [UInt32] = []
        out.reserveCapacity(3 * triangles.count)
        for t in triangles {
            for k in 0..<3 {
                let v = indices[3 * t + k]
                if let r = remap[v] { out.append(r); continue }
                let r = UInt32(positions.count)
                remap[v] = r
                positions.append(self.positions[Int(v)]); normals.append(self.normals[Int(v)])
                if !self.uvs.isEmpty { uvs.append(self.uvs[Int(v)]) }
                out.append(r)
            }
        }
        return MeshPrimitive(name: name, positions: positions, normals: normals, uvs: uvs, indices: out, materialIndex: materialIndex)
    }
}
