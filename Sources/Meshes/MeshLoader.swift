/// Opens any supported model file by its extension: `.gltf` / `.glb` through `GLTFLoader`, `.obj`
/// through `OBJLoader`. Anything else is refused with a `MeshError` naming the extension.
public struct MeshLoader {
    public var decoders: TextureDecoders
    public var geometry: GeometryDecoders
    /// Whether files the model names may lie outside its folder (absolute, `..`, symlinks out):
    /// off by default, see `ModelFolder`.
    public var allowsFilesOutsideFolder = false

    public init(decoders: TextureDecoders = TextureDecoders(), geometry: GeometryDecoders = GeometryDecoders(),
                allowsFilesOutsideFolder: Bool = false) {
        self.decoders = decoders
        self.geometry = geometry
        self.allowsFilesOutsideFolder = allowsFilesOutsideFolder
    }

    public static let supportedExtensions = ["gltf", "glb", "obj"]

    public func load(path: String) throws -> Mesh {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "gltf", "glb":
            var loader = GLTFLoader(decoders: decoders, geometry: geometry)
            loader.allowsFilesOutsideFolder = allowsFilesOutsideFolder
            return try loader.load(path: path)
        case "obj":
            var loader = OBJLoader(decoders: decoders)
            loader.allowsFilesOutsideFolder = allowsFilesOutsideFolder
            return try loader.load(path: path)
        default: throw MeshError(path, "unsupported model format '.\(ext)' (expected .gltf, .glb or .obj)")
        }
    }
}
