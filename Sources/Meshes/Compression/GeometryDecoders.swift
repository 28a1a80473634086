/// The geometry decompressors a glTF loader may use (`EXT_meshopt_compression`,
/// `KHR_draco_mesh_compression`), injected by the composition root like `TextureDecoders`. A file
/// that requires one that is absent is refused naming the extension; a file that only uses one
/// falls back to its uncompressed data (the meshopt fallback buffer, Draco's plain accessors).
public struct GeometryDecoders: Sendable {
    public var meshopt: (any MeshoptDecoding)?
    public var draco: (any DracoDecoding)?

    public init(meshopt: (any MeshoptDecoding)? = nil, draco: (any DracoDecoding)? = nil) {
        self.meshopt = meshopt
        self.draco = draco
    }

    /// The extension names these decoders add to what the loader reads in pure Swift.
    public var extensions: Set<String> {
        var names = Set<String>()
        if meshopt != nil { names.insert("EXT_meshopt_compression") }
        if draco != nil { names.insert("KHR_draco_mesh_compression") }
        return names
    }
}
