/// Why a part of a glasses model was taken as a lens (issue 23: lenses found whatever their
/// material says). Shops' models mark lenses in one of these ways, most explicit first.
public enum LensEvidence: Sendable, Equatable, CustomStringConvertible {
    /// Named by the user (`--lens NAME`) or by the catalogue entry's `lenses` field.
    case named(String)
    /// The material lets light through: `KHR_materials_transmission` or a BLEND alpha below 1.
    case material(String)
    /// A word of the part's or its material's name means lens ("glass", "lente", "verre", …).
    case name(String)
    /// A thin surface spanning a rim opening in front of an eye.
    case geometry(String)

    public var description: String {
        switch self {
        case .named(let n): return "named by --lens/catalogue '\(n)'"
        case .material(let m): return "material: \(m)"
        case .name(let w): return "name: '\(w)'"
        case .geometry(let g): return "geometry: \(g)"
        }
    }
}

/// One part (primitive) taken as a lens, with the material it had in the file and the evidence.
public struct LensFinding: Sendable, Equatable, CustomStringConvertible {
    public var part: String
    public var material: String
    public var evidence: LensEvidence
    /// Index of the part in the returned glasses' `mesh.primitives`.
    public var primitiveIndex: Int?

    public var description: String { "\(part) [material \(material)]: \(evidence)" }
}
