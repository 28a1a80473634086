/// Opens any supported model file by its extension: `.gltf` / `.glb` through `GLTFLoader`, `.obj`
/// through `OBJLoader`. Anything else is refused with a `MeshError` naming the extension.
public struct MeshLoader {
    public var decoders: TextureDecoders

    public init(decoders: TextureDecoders = TextureDecoders()) {
        self.decoders = decoders
    }

    public static let supportedExtensions = ["gltf", "glb", "obj"]

    public func load(path: String) throws -> Mesh {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "gltf", "glb": return try GLTFLoader(decoders: decoders).load(path: path)
        case "obj": return try OBJLoader(decoders: decoders).load(path: path)
        default: throw MeshError(path, "unsupported model format '.\(ext)' (expected .gltf, .glb or .obj)")
        }
    }
}
