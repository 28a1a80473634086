/// One frame in the catalogue: `id` (what `view` and `live --frame` take), display `name`, the
/// generator `style` and ISO 8624 `size` code ("52□18-140") for procedural frames, `mesh` (a path
/// relative to the catalogue file, or absolute), its colour/material `variants`, and for external
/// models without real-world units a declared `frameWidthMM` used when normalising, and `lenses`:
/// part or material names to take as lenses instead of the guess (`LensFinder`), or ["none"].
/// An external glTF model's own `KHR_materials_variants` are `modelVariants` (read when it is added).
public struct CatalogueEntry: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var style: String?
    public var size: String?
    public var mesh: String
    public var variants: [GlassesVariant]
    public var external: Bool
    public var frameWidthMM: Float?
    public var lenses: [String]?
    public var modelVariants: [String]?

    /// Every variant id "id:VARIANT" accepts: the colourways, then the model's own variants.
    public var variantIDs: [String] { variants.map(\.id) + (modelVariants ?? []) }

    public init(id: String, name: String, style: String? = nil, size: String? = nil, mesh: String, variants: [GlassesVariant] = [],
                external: Bool = false, frameWidthMM: Float? = nil, lenses: [String]? = nil, modelVariants: [String]? = nil) {
        self.id = id
        self.name = name
        self.style = style
        self.size = size
        self.mesh = mesh
        self.variants = variants
        self.external = external
        self.frameWidthMM = frameWidthMM
        self.lenses = lenses
        self.modelVariants = modelVariants
    }

    enum CodingKeys: String, CodingKey { case id, name, style, size, mesh, variants, external, frameWidthMM, lenses, modelVariants }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? id
        style = try c.decodeIfPresent(String.self, forKey: .style)
        size = try c.decodeIfPresent(String.self, forKey: .size)
        mesh = try c.decode(String.self, forKey: .mesh)
        variants = try c.decodeIfPresent([GlassesVariant].self, forKey: .variants) ?? []
        external = try c.decodeIfPresent(Bool.self, forKey: .external) ?? false
        frameWidthMM = try c.decodeIfPresent(Float.self, forKey: .frameWidthMM)
        lenses = try c.decodeIfPresent([String].self, forKey: .lenses)
        modelVariants = try c.decodeIfPresent([String].self, forKey: .modelVariants)
    }
}
