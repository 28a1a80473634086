/// The parts of a glTF 2.0 JSON document (Khronos glTF 2.0 specification) that the loader reads.
/// Unknown members are ignored, as the specification requires; everything optional in the spec is
/// optional here, with the spec's defaults applied by `GLTFLoader`.
struct GLTFDocument: Decodable {
    struct Asset: Decodable { var version: String }
    struct Buffer: Decodable {
        var uri: String?
        var byteLength: Int
        var extensions: BufferExtensions?
    }
    /// `EXT_meshopt_compression` on a buffer: `fallback` marks one that only compressed bufferViews
    /// refer to, whose bytes (often absent) a decoder never reads.
    struct BufferExtensions: Decodable {
        struct Meshopt: Decodable { var fallback: Bool? }
        var EXT_meshopt_compression: Meshopt?
    }
    struct BufferView: Decodable {
        var buffer: Int
        var byteOffset: Int?
        var byteLength: Int
        var byteStride: Int?
        var extensions: BufferViewExtensions?
    }
    /// `EXT_meshopt_compression` on a bufferView: where its compressed bytes are and how they decode.
    struct BufferViewExtensions: Decodable {
        struct Meshopt: Decodable {
            var buffer: Int
            var byteOffset: Int?
            var byteLength: Int
            var byteStride: Int
            var count: Int
            var mode: String
            var filter: String?
        }
        var EXT_meshopt_compression: Meshopt?
    }
    struct Accessor: Decodable {
        var bufferView: Int?
        var byteOffset: Int?
        var componentType: Int
        var normalized: Bool?
        var count: Int
        var type: String
        var sparse: Sparse?
        struct Sparse: Decodable { var count: Int }
    }
    struct Image: Decodable { var uri: String?; var mimeType: String?; var bufferView: Int? }
    struct Sampler: Decodable { var magFilter: Int?; var minFilter: Int?; var wrapS: Int?; var wrapT: Int? }
    struct Texture: Decodable {
        var sampler: Int?
        var source: Int?
        var extensions: TextureExtensions?
    }
    /// `EXT_texture_webp`: the WebP image to use instead of `source` (the PNG/JPEG fallback).
    struct TextureExtensions: Decodable {
        struct WebP: Decodable { var source: Int? }
        var EXT_texture_webp: WebP?
    }
    struct TextureInfo: Decodable {
        var index: Int
        var texCoord: Int?
        var extensions: TextureInfoExtensions?
    }
    /// `KHR_texture_transform`: UV offset, rotation (radians) and scale, applied as T · R · S.
    struct TextureTransform: Decodable {
        var offset: [Float]?
        var rotation: Float?
        var scale: [Float]?
        var texCoord: Int?
    }
    struct TextureInfoExtensions: Decodable { var KHR_texture_transform: TextureTransform? }
    struct PBR: Decodable {
        var baseColorFactor: [Float]?
        var baseColorTexture: TextureInfo?
        var metallicFactor: Float?
        var roughnessFactor: Float?
    }
    struct MaterialExtensions: Decodable {
        struct Transmission: Decodable { var transmissionFactor: Float? }
        struct IOR: Decodable { var ior: Float? }
        struct EmissiveStrength: Decodable { var emissiveStrength: Float? }
        var KHR_materials_transmission: Transmission?
        var KHR_materials_ior: IOR?
        var KHR_materials_emissive_strength: EmissiveStrength?
    }
    /// A skin (glTF 2.0 §3.7.3): joints and their inverse bind matrices; read to place skinned
    /// meshes in their bind pose.
    struct Skin: Decodable {
        var joints: [Int]
        var inverseBindMatrices: Int?
    }
    struct Material: Decodable {
        var name: String?
        var pbrMetallicRoughness: PBR?
        var alphaMode: String?
        var alphaCutoff: Float?
        var emissiveFactor: [Float]?
        var doubleSided: Bool?
        var extensions: MaterialExtensions?
    }
    struct Primitive: Decodable {
        var attributes: [String: Int]
        var indices: Int?
        var material: Int?
        var mode: Int?
        var extensions: PrimitiveExtensions?
    }
    /// `KHR_draco_mesh_compression`: the bufferView holding the primitive's Draco stream, and the
    /// Draco unique id of each attribute semantic it compresses.
    struct PrimitiveExtensions: Decodable {
        struct Draco: Decodable { var bufferView: Int; var attributes: [String: Int] }
        var KHR_draco_mesh_compression: Draco?
        /// `KHR_materials_variants`: which material this primitive takes in which variants.
        struct Variants: Decodable {
            struct Mapping: Decodable { var material: Int; var variants: [Int] }
            var mappings: [Mapping]?
        }
        var KHR_materials_variants: Variants?
    }
    struct MeshEntry: Decodable { var name: String?; var primitives: [Primitive] }
    struct Node: Decodable {
        var name: String?
        var children: [Int]?
        var mesh: Int?
        var skin: Int?
        var matrix: [Float]?
        var translation: [Float]?
        var rotation: [Float]?
        var scale: [Float]?
    }
    struct Scene: Decodable { var nodes: [Int]? }

    /// Root extensions: `KHR_materials_variants` names the variants.
    struct RootExtensions: Decodable {
        struct Variants: Decodable {
            struct Variant: Decodable { var name: String? }
            var variants: [Variant]?
        }
        var KHR_materials_variants: Variants?
    }

    var asset: Asset
    var extensions: RootExtensions?
    var extensionsUsed: [String]?
    var extensionsRequired: [String]?
    var buffers: [Buffer]?
    var bufferViews: [BufferView]?
    var accessors: [Accessor]?
    var images: [Image]?
    var samplers: [Sampler]?
    var textures: [Texture]?
    var materials: [Material]?
    var meshes: [MeshEntry]?
    var nodes: [Node]?
    var scenes: [Scene]?
    var skins: [Skin]?
    /// Any JSON value, counted but not read (animations: the model is drawn in its rest pose).
    struct Ignored: Decodable { init(from decoder: Decoder) throws {} }
    var animations: [Ignored]?
    var scene: Int?
}
