import Meshes

/// Eight `SurfaceVarying`s in structure-of-arrays form (lane i is fragment i of a batch), already
/// divided by the perspective weight: what `BatchShader.shade` reads.
struct SurfaceVarying8 {
    /// Direction towards the camera (close to unit), camera space.
    var vx: SIMD8<Float>, vy: SIMD8<Float>, vz: SIMD8<Float>
    /// The interpolated normal (not unit).
    var nx: SIMD8<Float>, ny: SIMD8<Float>, nz: SIMD8<Float>
    var u: SIMD8<Float>, v: SIMD8<Float>
    /// Diffuse light of the visible side, linear RGB.
    var dr: SIMD8<Float>, dg: SIMD8<Float>, db: SIMD8<Float>
    /// `PrimitiveView.normalFilter` of each fragment's triangle.
    var filter: SIMD8<Float>
}

extension SurfaceVarying8 {
    /// Eight fragments of one triangle at barycentrics b1, b2 of its corners 1 and 2: corner 0 plus
    /// the two edges (corner 1 minus corner 0, corner 2 minus corner 0), weighted, channel by channel.
    @inline(__always)
    init(corner o: SurfaceVarying, edge1 d1: SurfaceVarying, edge2 d2: SurfaceVarying, b1: SIMD8<Float>, b2: SIMD8<Float>) {
        @inline(__always) func lerp(_ a: Float, _ x: Float, _ y: Float) -> SIMD8<Float> { a + b1 * x + b2 * y }
        self.init(vx: lerp(o.toward.x, d1.toward.x, d2.toward.x), vy: lerp(o.toward.y, d1.toward.y, d2.toward.y),
                  vz: lerp(o.toward.z, d1.toward.z, d2.toward.z),
                  nx: lerp(o.normal.x, d1.normal.x, d2.normal.x), ny: lerp(o.normal.y, d1.normal.y, d2.normal.y),
                  nz: lerp(o.normal.z, d1.normal.z, d2.normal.z),
                  u: lerp(o.toward.w, d1.toward.w, d2.toward.w), v: lerp(o.normal.w, d1.normal.w, d2.normal.w),
                  dr: lerp(o.diffuse.x, d1.diffuse.x, d2.diffuse.x), dg: lerp(o.diffuse.y, d1.diffuse.y, d2.diffuse.y),
                  db: lerp(o.diffuse.z, d1.diffuse.z, d2.diffuse.z), filter: lerp(o.diffuse.w, d1.diffuse.w, d2.diffuse.w))
    }
}

/// Eight fragments (`Fragment`, channel by channel): `destination * multiply + add` in linear RGB;
/// lanes outside `keep` are discarded (MASK cut-outs).
struct Fragment8 {
    var addR: SIMD8<Float>, addG: SIMD8<Float>, addB: SIMD8<Float>
    var mulR: SIMD8<Float>, mulG: SIMD8<Float>, mulB: SIMD8<Float>
    var keep: SIMDMask<SIMD8<Int32>>
}

/// A material shader that also shades eight fragments at once, with the same arithmetic as its
/// scalar `fragment` lane by lane (the rasteriser's fast path queues fragments across pixels,
/// rows and triangles and shades them eight at a time: glasses triangles are a few pixels wide,
/// so spans alone would leave most lanes empty).
protocol BatchShader: FragmentShader where Corner == SurfaceVarying {
    /// Whether `shade` can discard a lane; such shaders write depth only for kept fragments, so
    /// their fragments are shaded before the next triangle is depth-tested.
    var mayDiscard: Bool { get }
    func shade(_ v: SurfaceVarying8) -> Fragment8
}

/// SIMD8 forms of the `Shading` terms (same formulas and evaluation order, lane by lane).
enum Shading8 {
    @inline(__always) static func dot(_ ax: SIMD8<Float>, _ ay: SIMD8<Float>, _ az: SIMD8<Float>,
                                      _ bx: SIMD8<Float>, _ by: SIMD8<Float>, _ bz: SIMD8<Float>) -> SIMD8<Float> {
        ax * bx + ay * by + az * bz
    }

    /// Lane-wise max and min, written out: the standard library's `pointwiseMax` was not inlined.
    @inline(__always) static func max(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }
    @inline(__always) static func min(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .< a) }

    /// x clamped to [0, 1] (NaN gives 1).
    @inline(__always) static func clamp01(_ x: SIMD8<Float>) -> SIMD8<Float> {
        max(SIMD8<Float>(repeating: 0), min(SIMD8<Float>(repeating: 1), x))
    }

    /// The Schlick weight (1 − cos)^5 of `Shading.schlick`: F = f0 + (1 − f0) weight.
    @inline(__always) static func schlickWeight(_ cosine: SIMD8<Float>) -> SIMD8<Float> {
        let m = 1 - clamp01(cosine)
        let m2 = m * m
        return m2 * m2 * m
    }

    /// `Shading.specular` for unit normals n and view directions v, key light direction l: the
    /// per-lane form below with one shininess (the same arithmetic, lane for lane).
    @inline(__always) static func specular(nx: SIMD8<Float>, ny: SIMD8<Float>, nz: SIMD8<Float>,
                                           vx: SIMD8<Float>, vy: SIMD8<Float>, vz: SIMD8<Float>,
                                           l: SIMD3<Float>, shininess: Float) -> SIMD8<Float> {
        specular(nx: nx, ny: ny, nz: nz, vx: vx, vy: vy, vz: vz, l: l, shininess: SIMD8<Float>(repeating: shininess))
    }

    /// `Shading.specular` with a shininess per lane (the filtered triangles' widened roughness).
    @inline(__always) static func specular(nx: SIMD8<Float>, ny: SIMD8<Float>, nz: SIMD8<Float>,
                                           vx: SIMD8<Float>, vy: SIMD8<Float>, vz: SIMD8<Float>,
                                           l: SIMD3<Float>, shininess: SIMD8<Float>) -> SIMD8<Float> {
        let zero = SIMD8<Float>(repeating: 0)
        let ndl = nx * l.x + ny * l.y + nz * l.z
        let hx = vx + l.x, hy = vy + l.y, hz = vz + l.z
        let s = dot(nx, ny, nz, hx, hy, hz)
        var live = (ndl .> zero) .& (s .> zero)
        let cutoff = 1 - 16 / shininess
        let h2 = dot(hx, hy, hz, hx, hy, hz)
        live .&= .!((cutoff .> zero) .& (s * s .< (cutoff * cutoff * 0.9998) * h2))
        // Most pixels of a sharp lobe are out of it: skip the square root and power for them all.
        guard any(live) else { return zero }
        let inv = 1 / h2.squareRoot()
        let ndh = s * inv
        live .&= ndh .> zero
        var t = max(zero, 1 - (1 - ndh) * shininess * (1 / 16 as Float))
        t *= t; t *= t; t *= t; t *= t
        let value = t * ((shininess + 8) * (1 / (8 * Float.pi))) * ndl
        return zero.replacing(with: value, where: live)
    }

    /// `Shading.shininess`, lane by lane.
    @inline(__always) static func shininess(roughness: SIMD8<Float>, floor: Float = 0.04, cap: Float = 512) -> SIMD8<Float> {
        let r = max(roughness, SIMD8<Float>(repeating: floor))
        let alpha = r * r
        return max(SIMD8<Float>(repeating: 1), min(SIMD8<Float>(repeating: cap), 2 / (alpha * alpha) - 2))
    }

    /// `Shading.widened`, lane by lane.
    @inline(__always) static func widened(roughness: Float, filter: SIMD8<Float>) -> SIMD8<Float> {
        roughness + filter * (1 - roughness)
    }

    /// The environment colour along r (`Lighting.environment`), one channel.
    @inline(__always) static func environmentBlend(_ ry: SIMD8<Float>) -> SIMD8<Float> {
        let t = min(max(0.5 - 1.2 * ry, SIMD8<Float>(repeating: 0)), SIMD8<Float>(repeating: 1))
        return t * t * (3 - 2 * t)
    }

    /// `Shading.visibleNormal` for eight fragments: normalises and bends (x, y, z) in place and
    /// returns the confidence of the view-dependent terms; lanes not in `bends` (flat triangles) are
    /// only normalised.
    @inline(__always) static func visibleNormal(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>, _ z: inout SIMD8<Float>,
                                                vx: SIMD8<Float>, vy: SIMD8<Float>, vz: SIMD8<Float>, bends: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
        let l2 = x * x + y * y + z * z
        let length = l2.squareRoot()
        let positive = l2 .> 0
        let s = SIMD8<Float>(repeating: 1).replacing(with: 1 / length, where: positive)
        x *= s; y *= s; z *= s
        let ndv = x * vx + y * vy + z * vz
        let facing = SIMD8<Float>(repeating: Shading.minimumFacing)
        let away = (ndv .< facing) .& bends
        if any(away) {
            let k = (facing - ndv).replacing(with: 0, where: .!away)
            x += vx * k; y += vy * k; z += vz * k
            let m2 = x * x + y * y + z * z
            let r = SIMD8<Float>(repeating: 1).replacing(with: 1 / m2.squareRoot(), where: (m2 .> 0) .& away)
            x *= r; y *= r; z *= r
        }
        return clamp01((length - 0.3) * 2.5)
    }

    /// Unit normal (zero stays zero), as `fastNormalize`.
    @inline(__always) static func normalize(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>, _ z: inout SIMD8<Float>) {
        let l2 = x * x + y * y + z * z
        let positive = l2 .> 0
        let s = SIMD8<Float>(repeating: 1).replacing(with: 1 / l2.squareRoot(), where: positive)
        x *= s; y *= s; z *= s
    }

    /// Texels at eight UVs (scalar lookups: the texture is not laid out for gathers), 0...255.
    @inline(__always) static func sample(_ texture: Texture, u: SIMD8<Float>, v: SIMD8<Float>)
        -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var r = SIMD8<Float>(), g = SIMD8<Float>(), b = SIMD8<Float>(), a = SIMD8<Float>()
        for i in 0..<8 {
            let t = texture.sample(SIMD2<Float>(u[i], v[i]))
            r[i] = t.x; g[i] = t.y; b[i] = t.z; a[i] = t.w
        }
        return (r, g, b, a)
    }

    /// `ColorTables.approximateLinear`, one channel.
    @inline(__always) static func approximateLinear(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let c = v * (1 / 255 as Float)
        return c * (c * (c * 0.305306011 + 0.682171111) + 0.012522878)
    }
}
