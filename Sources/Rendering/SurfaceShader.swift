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
        if blend {
            return Fragment(add: color * alpha, multiply: SIMD3<Float>(repeating: 1 - alpha))
        }
        return Fragment(add: color)
    }
}
