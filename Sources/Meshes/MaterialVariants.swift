/// `KHR_materials_variants` (Khronos): one model, several material sets, as shops sell one frame in
/// several colours. The loader keeps each primitive's mapping; a variant is chosen after loading.
extension Mesh {
    /// The mesh as variant `name` shows it: each primitive mapped in that variant takes its mapped
    /// material, the others keep their default. Throws a `MeshVariantError` listing the variants
    /// when the model has none of that name.
    public func selectingVariant(named name: String) throws -> Mesh {
        guard let v = variantNames.firstIndex(of: name) else {
            throw MeshVariantError(variantNames.isEmpty ? "the model has no material variants (KHR_materials_variants), so no '\(name)'"
                                   : "the model has no material variant '\(name)' (variants: \(variantNames.joined(separator: ", ")))")
        }
        var out = self
        for i in out.primitives.indices {
            if let m = out.primitives[i].variantMaterials[v] { out.primitives[i].materialIndex = m }
        }
        return out
    }
}

/// A variant name the model does not have.
public struct MeshVariantError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
