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
    /// The sharp part of the environment averaged over all directions, for filtered pixels.
    let averageEnvironment: SIMD3<Float>
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
        averageEnvironment = (lighting.sky + lighting.ground) * (0.5 * (1 - material.roughness))
        reflectionWeight = 0.3 + 0.7 * (1 - material.roughness)
        blend = material.alphaMode == .blend
        if case .mask(let cutoff) = material.alphaMode { maskCutoff = cutoff } else { maskCutoff = -1 }
    }

    var writesDepth: Bool { material.alphaMode != .blend }
    var writesColor: Bool { true }

    @inline(__always)
    func corners(triangle: Int, frontFacing: Bool) -> (SurfaceVarying, SurfaceVarying, SurfaceVarying) {
        view.corners(triangle, frontFacing: frontFacing, diffuse: true, roughness: material.roughness)
    }

    @inline(__always)
    func fragment(triangle: Int, varying: SurfaceVarying, frontFacing: Bool) -> Fragment? {
        let v = varying.v, diffuseLight = varying.diffuseLight
        let (n, confidence) = Shading.visibleNormal(SIMD3<Float>(varying.normal.x, varying.normal.y, varying.normal.z), v,
                                                      bends: !varying.isFlat)
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
        // Where one pixel spans a wide range of normals (thin rims), the highlight and the mirror
        // image average out: fade them towards the environment's mean (`PrimitiveView.normalFilter`).
        // The key light's highlight is the lobe of the widened roughness, not the material's lobe
        // faded by the filter: that left a few per cent of a peak 20 times the light (Blinn-Phong
        // at the 512 cap) where a pixel centre met the mirror direction, a lone light pixel on the
        // Khronos rims (issue 23). The widened, energy-normalised lobe is the highlight averaged
        // over the pixel's normals (Tokuyoshi & Kaplanyan 2019).
        let filter = varying.normalFilter
        let lobe = min(shininess, Shading.shininess(roughness: Shading.widened(roughness: material.roughness, filter: filter)))
        color += f0 * lighting.color * (Shading.specular(n: n, v: v, l: lighting.direction, shininess: lobe) * confidence)
        let r = Shading.reflect(v, n)
        let env = lighting.environment(r) * (sharp * (1 - filter)) + blurredEnvironment + averageEnvironment * filter
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
        let vx = q.vx, vy = q.vy, vz = q.vz
        // `PrimitiveView.normalFilter`: −1 marks a flat triangle (its normal is not bent).
        let filter: SIMD8<Float> = q.filter.replacing(with: 0, where: q.filter .< 0)
        let confidence = Shading8.visibleNormal(&nx, &ny, &nz, vx: vx, vy: vy, vz: vz, bends: q.filter .>= 0)
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
        let keepSharp = 1 - filter
        let lobe = Shading8.min(SIMD8<Float>(repeating: shininess), Shading8.shininess(roughness: Shading8.widened(roughness: material.roughness, filter: filter)))
        let spec = Shading8.specular(nx: nx, ny: ny, nz: nz, vx: vx, vy: vy, vz: vz, l: lighting.direction, shininess: lobe) * confidence
        let lc = lighting.color
        cr += f0r * lc.x * spec; cg += f0g * lc.y * spec; cb += f0b * lc.z * spec
        let ndv = Shading8.dot(nx, ny, nz, vx, vy, vz)
        // The environment depends on the reflected direction's y only.
        let ry = ny * (2 * ndv) - vy
        let blendT = Shading8.environmentBlend(ry)
        let g = lighting.ground, sg = lighting.sky - lighting.ground
        let w = Shading8.schlickWeight(ndv)
        let sharpHere = keepSharp * sharp, a = averageEnvironment
        let er = (g.x + sg.x * blendT) * sharpHere + blurredEnvironment.x + a.x * filter
        let eg = (g.y + sg.y * blendT) * sharpHere + blurredEnvironment.y + a.y * filter
        let eb = (g.z + sg.z * blendT) * sharpHere + blurredEnvironment.z + a.z * filter
        let reflection = reflectionWeight
        cr += er * (f0r + (1 - f0r) * w) * reflection
        cg += eg * (f0g + (1 - f0g) * w) * reflection
        cb += eb * (f0b + (1 - f0b) * w) * reflection
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
