import Foundation

/// Parses a Wavefront MTL material library into `Material`s (see `OBJLoader` for the mapping).
/// Textures are keyed by the material's texture index within `textures`.
enum MTLParser {
    struct Library {
        var materials: [Material] = []
        var textures: [Int: Texture] = [:]
        var warnings: [String] = []
    }

    static func srgbToLinear(_ c: Float) -> Float {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    static func parse(path: String, decoders: TextureDecoders) throws -> Library {
        let bytes = try readFile(path, what: "material library")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw MeshError(path, "MTL file is not UTF-8 text") }
        let directory = (path as NSString).deletingLastPathComponent
        var lib = Library()
        var nextTexture = 0
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let parts = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .split(whereSeparator: { $0 == " " || $0 == "\t" }) ?? []
            guard let head = parts.first else { continue }
            if head == "newmtl" {
                lib.materials.append(Material(name: parts.dropFirst().joined(separator: " "), baseColor: [0.8, 0.8, 0.8, 1],
                                              metallic: 0, roughness: 0.5))
                continue
            }
            guard !lib.materials.isEmpty else { continue }
            let i = lib.materials.count - 1
            func number(_ k: Int) -> Float? { k < parts.count ? Float(parts[k]) : nil }
            switch head {
            case "Kd":
                if let r = number(1), let g = number(2), let b = number(3) {
                    lib.materials[i].baseColor = [srgbToLinear(r), srgbToLinear(g), srgbToLinear(b), lib.materials[i].baseColor.w]
                }
            case "d": if let d = number(1) { lib.materials[i].baseColor.w = d }
            case "Tr": if let t = number(1) { lib.materials[i].baseColor.w = 1 - t }
            case "Ns": if let ns = number(1) { lib.materials[i].roughness = max(0.02, min(1, (2 / (ns + 2)).squareRoot())) }
            case "map_Kd":
                guard let name = parts.last, parts.count >= 2 else { continue }
                let file = directory.isEmpty ? String(name) : directory + "/" + name
                do {
                    guard let data = FileManager.default.contents(atPath: file) else { throw TextureDecodingError("file not found") }
                    let image = try decoders.decode([UInt8](data))
                    lib.textures[nextTexture] = Texture(image: image)
                    lib.materials[i].baseColorTexture = nextTexture
                    nextTexture += 1
                } catch {
                    lib.warnings.append("\(file): \(error); using base colour")
                }
            default: continue
            }
        }
        for i in lib.materials.indices where lib.materials[i].baseColor.w < 1 { lib.materials[i].alphaMode = .blend }
        return lib
    }
}
