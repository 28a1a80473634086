/// How a surface looks, after glTF 2.0's metallic-roughness model, reduced to what the try-on
/// renderer shades: base colour (linear RGB, alpha) optionally times a texture, metallic and
/// roughness factors, the alpha mode, double-sidedness, and the see-through lens parameters of
/// `KHR_materials_transmission` (fraction of light transmitted, tinted by the base colour) and
/// `KHR_materials_ior` (index of refraction, for the Fresnel reflectance at the lens surface).
public struct Material: Sendable, Equatable {
    /// glTF alpha modes: OPAQUE ignores alpha, MASK cuts at `cutoff`, BLEND composites over what is behind.
    public enum AlphaMode: Sendable, Equatable {
        case opaque
        case mask(cutoff: Float)
        case blend
    }

    public var name: String
    /// Linear RGB and alpha, each 0...1 (glTF `baseColorFactor`).
    public var baseColor: SIMD4<Float>
    /// Index into `Mesh.textures`, or nil.
    public var baseColorTexture: Int?
    public var metallic: Float
    public var roughness: Float
    public var alphaMode: AlphaMode
    public var doubleSided: Bool
    /// `KHR_materials_transmission.transmissionFactor`, 0 when the extension is absent.
    public var transmission: Float
    /// `KHR_materials_ior.ior`, 1.5 (glTF's default) when absent.
    public var indexOfRefraction: Float
    /// Light the surface gives off, linear RGB added to what it reflects: glTF `emissiveFactor`
    /// times `KHR_materials_emissive_strength.emissiveStrength` (which lets it exceed 1). Zero
    /// for nearly every frame; an LED rim or a logo inlay glows.
    public var emissive: SIMD3<Float>

    public init(name: String, baseColor: SIMD4<Float> = [1, 1, 1, 1], baseColorTexture: Int? = nil,
                metallic: Float = 1, roughness: Float = 1, alphaMode: AlphaMode = .opaque,
                doubleSided: Bool = false, transmission: Float = 0, indexOfRefraction: Float = 1.5, emissive: SIMD3<Float> = .zero) {
        self.name = name
        self.baseColor = baseColor
        self.baseColorTexture = baseColorTexture
        self.metallic = metallic
        self.roughness = roughness
        self.alphaMode = alphaMode
        self.doubleSided = doubleSided
        self.transmission = transmission
        self.indexOfRefraction = indexOfRefraction
        self.emissive = emissive
    }

    /// The material with every factor inside the range glTF defines for it (colour, alpha, metallic,
    /// roughness, transmission and the MASK cutoff in 0...1; the index of refraction in 1...10, past
    /// any real lens), a NaN becoming the glTF default. Loaders clamp rather than refuse: a colour of
    /// 1.2 or 3e38 in a downloaded file means "full", and the renderer's colour arithmetic then
    /// cannot produce the infinities and NaNs that it would turn into out-of-range table indices.
    public func clampedToValidRanges() -> Material {
        func clamp(_ v: Float, _ lo: Float, _ hi: Float, default d: Float) -> Float { v.isNaN ? d : min(max(v, lo), hi) }
        var m = self
        m.baseColor = SIMD4(clamp(baseColor.x, 0, 1, default: 1), clamp(baseColor.y, 0, 1, default: 1),
                            clamp(baseColor.z, 0, 1, default: 1), clamp(baseColor.w, 0, 1, default: 1))
        m.metallic = clamp(metallic, 0, 1, default: 1)
        m.roughness = clamp(roughness, 0, 1, default: 1)
        m.transmission = clamp(transmission, 0, 1, default: 0)
        m.indexOfRefraction = clamp(indexOfRefraction, 1, 10, default: 1.5)
        // The strength may push emission past 1 (an HDR value); 100 is far past any display's white.
        m.emissive = SIMD3(clamp(emissive.x, 0, 100, default: 0), clamp(emissive.y, 0, 100, default: 0), clamp(emissive.z, 0, 100, default: 0))
        if case .mask(let cutoff) = alphaMode { m.alphaMode = .mask(cutoff: clamp(cutoff, 0, 1, default: 0.5)) }
        return m
    }

    /// A lens: light passes through it (transmission), so it is drawn after everything opaque,
    /// tinting what is behind and adding a Fresnel reflection rather than hiding it.
    public var isLens: Bool { transmission > 0 }

    /// Drawn in the second, back-to-front pass (lenses and BLEND surfaces).
    public var isTranslucent: Bool { isLens || alphaMode == .blend }
}
