import Foundation

/// A model named on the command line or in the preview: a `.gltf`/`.glb`/`.obj` path, optionally
/// followed by `:VARIANT`, one of its `KHR_materials_variants` ("frame.glb:Havana").
public struct ModelReference: Sendable, Equatable {
    public var path: String
    public var variant: String?

    /// Nil when `spec` does not name a model file by its extension (it may be a catalogue id).
    public init?(_ spec: String) {
        func isModel(_ p: String) -> Bool { MeshLoader.supportedExtensions.contains((p as NSString).pathExtension.lowercased()) }
        if isModel(spec) {
            path = spec
            variant = nil
        } else if let colon = spec.lastIndex(of: ":"), isModel(String(spec[..<colon])), spec.index(after: colon) < spec.endIndex {
            path = String(spec[..<colon])
            variant = String(spec[spec.index(after: colon)...])
        } else {
            return nil
        }
    }
}

extension MeshLoader {
    /// Loads `reference.path` and selects its variant, if one is named.
    public func load(_ reference: ModelReference) throws -> Mesh {
        let mesh = try load(path: reference.path)
        guard let variant = reference.variant else { return mesh }
        do { return try mesh.selectingVariant(named: variant) } catch let e as MeshVariantError {
            throw MeshError(reference.path, e.description)
        }
    }
}
