/// Opens (or closes) the temples of a canonical glasses model so their ends sit at a given half
/// width: each side's geometry behind the hinge is turned about the vertical axis through that
/// side's hinge (`GlassesRegions`), so the temples clear a head of that breadth and reach the ears.
/// The turn fades in over the first `blendMM` behind the hinge, bending the temple there rather
/// than tearing it from the end piece. Only vertices on the temple's side of the frame
/// (|x| beyond 30 % of the half width) and behind the hinge move; the front is untouched.
public enum TempleOpening {
    public static func open(_ glasses: CanonicalGlasses, templeEndHalfWidthMM target: Float, blendMM: Float = 8) -> CanonicalGlasses {
        var out = glasses
        let r = glasses.regions
        let halfWidth = r.frameWidth / 2
        var angles: [Float] = [0, 0] // left (+x), right (−x)
        for (k, side) in [Float(1), -1].enumerated() {
            let hinge = side > 0 ? r.leftHinge : r.rightHinge
            let end = side > 0 ? r.leftTempleEnd : r.rightTempleEnd
            let dx = end.x - hinge.x, dz = end.z - hinge.z
            guard dz < -1 else { continue }
            // side·x of the end after opening by phi: side·hinge.x + side·dx·cos(phi) − dz·sin(phi); bisect phi.
            func reach(_ phi: Float) -> Float { side * hinge.x + side * dx * cosf(phi) - dz * sinf(phi) }
            var lo: Float = -0.5, hi: Float = 0.8
            guard reach(lo) <= target && reach(hi) >= target else { continue }
            for _ in 0..<40 { let mid = (lo + hi) / 2; if reach(mid) < target { lo = mid } else { hi = mid } }
            angles[k] = (lo + hi) / 2
        }
        for pi in out.mesh.primitives.indices {
            var p = out.mesh.primitives[pi]
            for v in p.positions.indices {
                let q = p.positions[v]
                let side: Float = q.x >= 0 ? 1 : -1
                guard side * q.x > 0.3 * halfWidth else { continue }
                let hinge = side > 0 ? r.leftHinge : r.rightHinge
                let behind = hinge.z - q.z
                guard behind > 0 else { continue }
                let phi = angles[side > 0 ? 0 : 1] * min(1, behind / max(blendMM, 1e-3))
                guard phi != 0 else { continue }
                let alpha = -side * phi
                let c = cosf(alpha), s = sinf(alpha)
                let d = q - hinge
                p.positions[v] = hinge + SIMD3<Float>(d.x * c + d.z * s, d.y, -d.x * s + d.z * c)
                let n = p.normals[v]
                p.normals[v] = SIMD3<Float>(n.x * c + n.z * s, n.y, -n.x * s + n.z * c)
            }
            out.mesh.primitives[pi] = p
        }
        out.regions = GlassesRegions.detect(in: out.mesh)
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
