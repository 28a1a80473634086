import Meshes

/// A see-through lens (`KHR_materials_transmission`): what is behind is multiplied by the
/// transmittance — the base colour (the tint) times the transmission factor times 1 − F — and the
/// lens adds F times the reflected environment plus the key light's glint, with F from
/// Schlick's approximation and F0 from `KHR_materials_ior` ((n−1)/(n+1))², floored at 0.04 (an
/// uncoated spectacle lens) so every lens shows some reflection.
///
/// Polished glass does not scatter: the light a lens neither transmits nor reflects is absorbed
/// (that is what a tint is), so only a rough (frosted) lens scatters its untransmitted share
/// diffusely, in proportion to its roughness. Shading that share as a white diffuse surface, as
/// glTF's diffuse-transmission split suggests, lifted the dark pupils behind a clear lens by
/// several per cent of white and read as haze. The environment a lens mirrors is the room in
/// front of the wearer, which sits around the frame's mid-grey rather than at the studio sky's
/// brightness, so environment reflections are halved. BLEND alpha composites the whole result.
/// Lenses never write depth.
struct LensShader: FragmentShader {
    let view: PrimitiveView
    let material: Material
    let texture: Texture?
    let lighting: Lighting
    let f0: Float
    let shininess: Float
    let scatter: Float
    // Per-draw constants, hoisted out of the per-pixel code.
    let blend: Bool
    let baseTint: SIMD3<Float>
    let baseAlpha: Float

    init(view: PrimitiveView, material: Material, texture: Texture?, lighting: Lighting) {
        self.view = view
        self.material = material
        self.texture = texture
        self.lighting = lighting
        let ior = material.indexOfRefraction
        let r = (ior - 1) / (ior + 1)
        self.f0 = max(0.04, r * r)
        // A polished lens mirrors a lamp as a small glint, not a soft blob: its lobe may be far
        // sharper than the 512 cap of rougher surfaces (4096: within about 3° of the mirror direction).
        self.shininess = Shading.shininess(roughness: material.roughness, floor: Shading.lensRoughnessFloor, cap: min(4096, lighting.maxShininess))
        // Below 1 % the scattered light is invisible: skip it (and its interpolation) per pixel.
        let scatter = (1 - material.transmission) * material.roughness
        self.scatter = scatter < 0.01 ? 0 : scatter
        blend = material.alphaMode == .blend
        baseTint = SIMD3<Float>(material.baseColor.x, material.baseColor.y, material.baseColor.z)
        baseAlpha = blend ? material.baseColor.w : 1
    }

    var writesDepth: Bool { false }
    var writesColor: Bool { true }

    @inline(__always)
    func corners(triangle: Int, frontFacing: Bool) -> (SurfaceVarying, SurfaceVarying, SurfaceVarying) {
        view.corners(triangle, frontFacing: frontFacing, diffuse: scatter > 0, roughness: material.roughness)
    }

    @inline(__always)
    func fragment(triangle: Int, varying: SurfaceVarying, frontFacing: Bool) -> Fragment? {
        let v = varying.v, n = varying.n, diffuseLight = varying.diffuseLight
        var tint = baseTint
        var alpha = baseAlpha
        if let texture {
            let t = texture.sample(varying.uv)
            tint *= ColorTables.approximateLinear(SIMD3<Float>(t.x, t.y, t.z))
            if blend { alpha *= t.w * (1 / 255 as Float) }
        }
        let fresnel = Shading.schlick(SIMD3<Float>(repeating: f0), (n * v).sum())
        let one = SIMD3<Float>(repeating: 1)
        let transmitted = tint * material.transmission * (one - fresnel)
        var reflected = fresnel * lighting.environment(Shading.reflect(v, n)) * 0.5
        // The glint's lobe is widened by the triangle's spread of normals across the pixel, as on
        // surfaces (`SurfaceShader`): the sharp lobe (up to 4096) on a small, strongly curved
        // clear part (the Khronos nose pads) lit one pixel at full white (issue 23).
        let lobe = Shading.shininess(roughness: Shading.widened(roughness: material.roughness, filter: varying.normalFilter),
                                     floor: Shading.lensRoughnessFloor, cap: shininess)
        reflected += lighting.color * Shading.specular(n: n, v: v, l: lighting.direction, shininess: lobe) * f0
        let add = scatter > 0 ? reflected + tint * scatter * diffuseLight * (one - fresnel) : reflected
        return Fragment(add: add * alpha, multiply: one - alpha + transmitted * alpha)
    }
}

extension LensShader: BatchShader {
    var mayDiscard: Bool { false }

    /// `fragment` for eight fragments.
    @inline(__always)
    func shade(_ q: SurfaceVarying8) -> Fragment8 {
        var nx = q.nx, ny = q.ny, nz = q.nz
        Shading8.normalize(&nx, &ny, &nz)
        let vx = q.vx, vy = q.vy, vz = q.vz
        var tr = SIMD8<Float>(repeating: baseTint.x), tg = SIMD8<Float>(repeating: baseTint.y), tb = SIMD8<Float>(repeating: baseTint.z)
        var alpha = SIMD8<Float>(repeating: baseAlpha)
        if let texture {
            let (r, g, b, a) = Shading8.sample(texture, u: q.u, v: q.v)
            tr *= Shading8.approximateLinear(r); tg *= Shading8.approximateLinear(g); tb *= Shading8.approximateLinear(b)
            if blend { alpha *= a * (1 / 255 as Float) }
        }
        let ndv = Shading8.dot(nx, ny, nz, vx, vy, vz)
        let fresnel = f0 + (1 - f0) * Shading8.schlickWeight(ndv)
        let through = 1 - fresnel
        let transmission = material.transmission
        let ry = ny * (2 * ndv) - vy
        let blendT = Shading8.environmentBlend(ry)
        let g = lighting.ground, sg = lighting.sky - lighting.ground
        let filter: SIMD8<Float> = q.filter.replacing(with: 0, where: q.filter .< 0)
        let lobe = Shading8.shininess(roughness: Shading8.widened(roughness: material.roughness, filter: filter),
                                      floor: Shading.lensRoughnessFloor, cap: shininess)
        let spec = Shading8.specular(nx: nx, ny: ny, nz: nz, vx: vx, vy: vy, vz: vz, l: lighting.direction, shininess: lobe)
        let lc = lighting.color
        var ar = fresnel * (g.x + sg.x * blendT) * 0.5 + lc.x * spec * f0
        var ag = fresnel * (g.y + sg.y * blendT) * 0.5 + lc.y * spec * f0
        var ab = fresnel * (g.z + sg.z * blendT) * 0.5 + lc.z * spec * f0
        if scatter > 0 {
            ar += tr * scatter * q.dr * through
            ag += tg * scatter * q.dg * through
            ab += tb * scatter * q.db * through
        }
        let clear = 1 - alpha
        return Fragment8(addR: ar * alpha, addG: ag * alpha, addB: ab * alpha,
                         mulR: clear + tr * transmission * through * alpha,
                         mulG: clear + tg * transmission * through * alpha,
                         mulB: clear + tb * transmission * through * alpha,
                         keep: SIMDMask(repeating: true))
    }
}
