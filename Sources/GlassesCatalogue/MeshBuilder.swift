import Meshes

/// Accumulates one primitive's vertices and triangles for the procedural generators. Triangles
/// are wound so their geometric normal agrees with the vertex normals (front faces outward), so
/// generators can list corners in any order.
struct MeshBuilder {
    var positions: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []
    var indices: [UInt32] = []

    mutating func vertex(_ p: SIMD3<Float>, _ n: SIMD3<Float>) -> UInt32 {
        positions.append(p)
        normals.append(simdNormalize(n))
        return UInt32(positions.count - 1)
    }

    mutating func triangle(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
        let pa = positions[Int(a)], pb = positions[Int(b)], pc = positions[Int(c)]
        let geometric = simdCross(pb - pa, pc - pa)
        guard simdLength(geometric) > 0 else { return }
        let shading = normals[Int(a)] + normals[Int(b)] + normals[Int(c)]
        if simdDot(geometric, shading) >= 0 { indices += [a, b, c] } else { indices += [a, c, b] }
    }

    /// Sweeps a closed cross-section `profile` (points and normals in the (side, up) plane) along
    /// `path`, with per-point `side` and `up` axes; `closed` joins the last ring to the first,
    /// otherwise both ends get flat caps.
    mutating func sweep(path: [SIMD3<Float>], side: [SIMD3<Float>], up: [SIMD3<Float>],
                        profile: [(point: SIMD2<Float>, normal: SIMD2<Float>)], closed: Bool) {
        let m = profile.count
        guard path.count >= 2, m >= 3 else { return }
        let base = UInt32(positions.count)
        for i in path.indices {
            for (p, n) in profile {
                _ = vertex(path[i] + side[i] * p.x + up[i] * p.y, side[i] * n.x + up[i] * n.y)
            }
        }
        let rings = path.count
        let segments = closed ? rings : rings - 1
        for i in 0..<segments {
            let r0 = base + UInt32(i * m), r1 = base + UInt32(((i + 1) % rings) * m)
            for j in 0..<m {
                let j1 = UInt32((j + 1) % m), j0 = UInt32(j)
                triangle(r0 + j0, r1 + j0, r1 + j1)
                triangle(r0 + j0, r1 + j1, r0 + j1)
            }
        }
        if !closed {
            for (ring, sign) in [(0, Float(-1)), (rings - 1, Float(1))] {
                let tangent = simdNormalize(ring == 0 ? path[1] - path[0] : path[rings - 1] - path[rings - 2]) * sign
                let centre = vertex(path[ring], tangent)
                var cap: [UInt32] = []
                for (p, _) in profile { cap.append(vertex(path[ring] + side[ring] * p.x + up[ring] * p.y, tangent)) }
                for j in 0..<m { triangle(centre, cap[j], cap[(j + 1) % m]) }
            }
        }
    }

    func primitive(name: String, material: Int) -> MeshPrimitive {
        MeshPrimitive(name: name, positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: material)
    }

    /// A rounded-rectangle cross-section of `width` x `height`, centred: `segments` points on a
    /// superellipse of exponent 4 (flat faces, soft corners), spread to span the full width and
    /// height, with the superellipse's normals. Four points (its corners) by default: a rim is a
    /// few pixels wide on screen, where the interpolated corner normals shade the four faces as a
    /// rounded bar and the outline alone makes the silhouette; eight points drew the same
    /// picture with twice the triangles, and the rasteriser pays per triangle.
    static func roundedProfile(width: Float, height: Float, segments: Int = 4) -> [(point: SIMD2<Float>, normal: SIMD2<Float>)] {
        let e: Float = 0.5 // 2 / exponent
        // The first point's |cos|^e is scaled to 1: the largest |cos|^e or |sin|^e of any point when
        // the count is a multiple of four; other counts are clamped to the box.
        let spread = 1 / powf(abs(cosf(Float.pi / Float(segments))), e)
        return (0..<segments).map { k in
            let t = 2 * Float.pi * Float(k) / Float(segments) + Float.pi / Float(segments)
            let c = cosf(t), s = sinf(t)
            let ux = copysign(powf(abs(c), e), c), uy = copysign(powf(abs(s), e), s)
            // Gradient of |x/a|^4 + |y/b|^4 gives the outward normal.
            let nx = powf(abs(ux), 3) / (width / 2) * (ux < 0 ? -1 : 1)
            let ny = powf(abs(uy), 3) / (height / 2) * (uy < 0 ? -1 : 1)
            let n = SIMD2<Float>(nx, ny)
            let l = (n * n).sum().squareRoot()
            return (SIMD2<Float>(width / 2 * max(-1, min(1, ux * spread)), height / 2 * max(-1, min(1, uy * spread))), l > 0 ? n / l : SIMD2<Float>(c, s))
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
