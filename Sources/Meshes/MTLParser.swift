import Imaging
import Foundation

/// Parses a Wavefront MTL material library into `Material`s (see `OBJLoader` for the mapping).
/// Textures are keyed by the material's texture index within `textures`.
///
/// Numbers: a NaN or an infinity refuses the library with its line number (it is damage, and the
/// renderer turned `Kd nan nan nan` into an out-of-bounds read); finite values outside their range
/// are clamped (`Material.clampedToValidRanges`: `Kd 1.2` or `d 3e38` in a downloaded file means
/// "full"), as is a negative `Ns`.
enum MTLParser {
    struct Library {
        var materials: [Material] = []
        var textures: [Int: Texture] = [:]
        var warnings: [String] = []
    }

    static func srgbToLinear(_ c: Float) -> Float { SRGB.decode(c) }

    static func parse(path: String, decoders: TextureDecoders, allowsFilesOutsideFolder: Bool = false) throws -> Library {
        let bytes = try readFile(path, what: "material library")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw MeshError(path, "MTL file is not UTF-8 text") }
        let directory = (path as NSString).deletingLastPathComponent
        var lib = Library()
        var nextTexture = 0
        var lineNumber = 0
        // Lines are counted as the OBJ loader counts them: "\r\n" is two separators there too.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            lineNumber += 1
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
            func number(_ k: Int) throws -> Float? {
                guard k < parts.count, let v = Float(parts[k]) else { return nil }
                guard v.isFinite else { throw MeshError(path, "line \(lineNumber): '\(head)' value \(parts[k]) is not a finite number") }
                return v
            }
            switch head {
            case "Kd":
                if let r = try number(1), let g = try number(2), let b = try number(3) {
                    lib.materials[i].baseColor = [srgbToLinear(r), srgbToLinear(g), srgbToLinear(b), lib.materials[i].baseColor.w]
                }
            case "d": if let d = try number(1) { lib.materials[i].baseColor.w = d }
            case "Tr": if let t = try number(1) { lib.materials[i].baseColor.w = 1 - t }
            case "Ns": if let ns = try number(1) { lib.materials[i].roughness = max(0.02, min(1, (2 / (max(ns, 0) + 2)).squareRoot())) }
            case "map_Kd":
                guard let name = parts.last, parts.count >= 2 else { continue }
                let file = directory.isEmpty ? String(name) : directory + "/" + name
                do {
                    _ = try ModelFolder.path(of: String(name), in: directory, allowOutside: allowsFilesOutsideFolder)
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
        for i in lib.materials.indices {
            lib.materials[i] = lib.materials[i].clampedToValidRanges()
            if lib.materials[i].baseColor.w < 1 { lib.materials[i].alphaMode = .blend }
        }
        return lib
    }
}
