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

    public init(name: String, baseColor: SIMD4<Float> = [1, 1, 1, 1], baseColorTexture: Int? = nil,
                metallic: Float = 1, roughness: Float = 1, alphaMode: AlphaMode = .opaque,
                doubleSided: Bool = false, transmission: Float = 0, indexOfRefraction: Float = 1.5) {
        self.name = name
        self.baseColor = baseColor
        self.baseColorTexture = baseColorTexture
        self.metallic = metallic
        self.roughness = roughness
        self.alphaMode = alphaMode
        self.doubleSided = doubleSided
        self.transmission = transmission
        self.indexOfRefraction = indexOfRefraction
    }

    /// A lens: light passes through it (transmission), so it is drawn after everything opaque,
    /// tinting what is behind and adding a Fresnel reflection rather than hiding it.
    public var isLens: Bool { transmission > 0 }

    /// Drawn in the second, back-to-front pass (lenses and BLEND surfaces).
    public var isTranslucent: Bool { isLens || alphaMode == .blend }
}
