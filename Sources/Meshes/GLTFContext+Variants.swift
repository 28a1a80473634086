/// `KHR_materials_variants`: the variant names and each primitive's mappings.
extension GLTFContext {
    /// The variants' names in file order; an unnamed one is called "variantN".
    var variantNames: [String] {
        (doc.extensions?.KHR_materials_variants?.variants ?? []).enumerated().map { i, v in
            let name = v.name?.trimmingCharacters(in: .whitespaces) ?? ""
            return name.isEmpty ? "variant\(i)" : name
        }
    }

    /// Variant index → material for primitive `p`. A mapping to a material or variant that does
    /// not exist is refused: the file would show a different frame than the shop described.
    func variantMaterials(_ p: GLTFDocument.Primitive, name: String, materialCount: Int) throws -> [Int: Int] {
        guard let mappings = p.extensions?.KHR_materials_variants?.mappings else { return [:] }
        let count = doc.extensions?.KHR_materials_variants?.variants?.count ?? 0
        var out: [Int: Int] = [:]
        for m in mappings {
            guard m.material >= 0 && m.material < materialCount else {
                throw fail("\(name): KHR_materials_variants maps to material \(m.material), which does not exist")
            }
            for v in m.variants {
                guard v >= 0 && v < count else { throw fail("\(name): KHR_materials_variants names variant \(v) (\(count) variants)") }
                out[v] = m.material
            }
        }
        return out
    }
}
