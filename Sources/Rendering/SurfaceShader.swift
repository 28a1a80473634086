import Meshes

/// Shades a glTF metallic-roughness surface: base colour times texture, Lambert diffuse under the
/// lighting's diffuse light (interpolated from the vertices: spherical-harmonic irradiance or
/// ambient plus directional), an energy-normalised Blinn-Phong highlight of the key light, and an environment
/// reflection weighted by Schlick's Fresnel term (which is what makes metals look metallic).
/// OPAQUE writes colour and depth; MASK discards below the cutoff; BLEND composites over the
/// background by alpha without writing depth.
struct SurfaceShader: FragmentShader {
    let view: PrimitiveView
    let material: Material
    let texture: Texture?
    let lighting: Lighting
    let shininess: Float
    // Per-draw constants, hoisted out of the per-pixel code.
    let baseColor: SIMD3<Float>
    let sharp: Float
    let blurredEnvironment: SIMD3<Float>
    let reflectionWeight: Float
    let blend: Bool
    let maskCutoff: Float

    init(view: PrimitiveView, material: Material, texture: Texture?, lighting: Lighting) {
        self.view = view
        self.material = material
        self.texture = texture
        self.lighting = lighting
        self.shininess = min(Shading.shininess(roughness: material.roughness), lighting.maxShininess)
        baseColor = SIMD3<Float>(material.baseColor.x, material.baseColor.y, material.baseColor.z)
        sharp = 1 - material.roughness
        blurredEnvironment = (lighting.sky + lighting.ground) * (0.5 * material.roughness)
        reflectionWeight = 0.3 + 0.7 * (1 - material.roughness)
        blend = material.alphaMode == .blend
        if case .mask(let cutoff) = material.alphaMode { maskCutoff = cutoff } else { maskCutoff = -1 }
    }

    var writesDepth: Bool { material.alphaMode != .blend }
    var writesColor: Bool { true }

    @inline(__always)
    func corners(triangle: Int, frontFacing: Bool) -> (SurfaceVarying, SurfaceVarying, SurfaceVarying) {
        view.corners(triangle, frontFacing: frontFacing, diffuse: true)
    }

    @inline(__always)
    func fragment(triangle: Int, varying: SurfaceVarying, frontFacing: Bool) -> Fragment? {
        let v = varying.v, n = varying.n, diffuseLight = varying.diffuseLight
        var base = baseColor
        var alpha = material.baseColor.w
        if let texture {
            let t = texture.sample(varying.uv)
            base *= ColorTables.approximateLinear(SIMD3<Float>(t.x, t.y, t.z))
            alpha *= t.w * (1 / 255 as Float)
        }
        if alpha < maskCutoff { return nil }
        let metallic = material.metallic
        let f0 = SIMD3<Float>(repeating: 0.04) * (1 - metallic) + base * metallic
        var color = base * (1 - metallic) * diffuseLight
        color += f0 * lighting.color * Shading.specular(n: n, v: v, l: lighting.direction, shininess: shininess)
        let r = Shading.reflect(v, n)
        let env = lighting.environment(r) * sharp + blurredEnvironment
        color += env * Shading.schlick(f0, (n * v).sum()) * reflectionWeight
        color += material.emissive
        if blend {
            return Fragment(add: color * alpha, multiply: SIMD3<Float>(repeating: 1 - alpha))
        }
        return Fragment(add: color)
    }
}

extension SurfaceShader: BatchShader {
    var mayDiscard: Bool { maskCutoff >= 0 }

    /// `fragment` for eight fragments.
    @inline(__always)
    func shade(_ q: SurfaceVarying8) -> Fragment8 {
        var nx = q.nx, ny = q.ny, nz = q.nz
        Shading8.normalize(&nx, &ny, &nz)
        let vx = q.vx, vy = q.vy, vz = q.vz
        var br = SIMD8<Float>(repeating: baseColor.x), bg = SIMD8<Float>(repeating: baseColor.y), bb = SIMD8<Float>(repeating: baseColor.z)
        var alpha = SIMD8<Float>(repeating: material.baseColor.w)
        if let texture {
            let (r, g, b, a) = Shading8.sample(texture, u: q.u, v: q.v)
            br *= Shading8.approximateLinear(r); bg *= Shading8.approximateLinear(g); bb *= Shading8.approximateLinear(b)
            alpha *= a * (1 / 255 as Float)
        }
        let keep = .!(alpha .< maskCutoff)
        let metallic = material.metallic, dielectric = 1 - metallic
        let f0Dielectric = 0.04 * dielectric
        let f0r = f0Dielectric + br * metallic, f0g = f0Dielectric + bg * metallic, f0b = f0Dielectric + bb * metallic
        var cr = br * dielectric * q.dr, cg = bg * dielectric * q.dg, cb = bb * dielectric * q.db
        let spec = Shading8.specular(nx: nx, ny: ny, nz: nz, vx: vx, vy: vy, vz: vz, l: lighting.direction, shininess: shininess)
        let lc = lighting.color
        cr += f0r * lc.x * spec; cg += f0g * lc.y * spec; cb += f0b * lc.z * spec
        let ndv = Shading8.dot(nx, ny, nz, vx, vy, vz)
        // The environment depends on the reflected direction's y only.
        let ry = ny * (2 * ndv) - vy
        let blendT = Shading8.environmentBlend(ry)
        let g = lighting.ground, sg = lighting.sky - lighting.ground
        let w = Shading8.schlickWeight(ndv)
        let er = (g.x + sg.x * blendT) * sharp + blurredEnvironment.x
        let eg = (g.y + sg.y * blendT) * sharp + blurredEnvironment.y
        let eb = (g.z + sg.z * blendT) * sharp + blurredEnvironment.z
        cr += er * (f0r + (1 - f0r) * w) * reflectionWeight
        cg += eg * (f0g + (1 - f0g) * w) * reflectionWeight
        cb += eb * (f0b + (1 - f0b) * w) * reflectionWeight
        let e = material.emissive
        cr += e.x; cg += e.y; cb += e.z
        if blend {
            let m = 1 - alpha
            return Fragment8(addR: cr * alpha, addG: cg * alpha, addB: cb * alpha, mulR: m, mulG: m, mulB: m, keep: keep)
        }
        let zero = SIMD8<Float>(repeating: 0)
        return Fragment8(addR: cr, addG: cg, addB: cb, mulR: zero, mulG: zero, mulB: zero, keep: keep)
    }
}
