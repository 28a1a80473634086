import DracoCodec
import Foundation
import JPEGCodec
import Meshes
import MeshoptCodec
import PNGCodec
import WebPCodec

/// Locates `../shared/data/glasses` next to the repository and reads its `models.json`.
enum SharedModels {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let directory = repository.deletingLastPathComponent().appendingPathComponent("shared/data/glasses").path
    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/models.json") }
    static let skipMessage = "needs /work/shared/data/glasses (../shared next to the repository)"

    struct Entry {
        var id: String
        var file: String
        var triangles: Int
        var bboxMin: SIMD3<Float>
        var bboxMax: SIMD3<Float>
        var orientation: String
        var textures: Int
    }

    static func entries() throws -> [Entry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/models.json"))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (root["models"] as! [[String: Any]]).map { m in
            func v(_ key: String) -> SIMD3<Float> {
                let a = (m[key] as! [NSNumber]).map { $0.floatValue }
                return [a[0], a[1], a[2]]
            }
            return Entry(id: m["id"] as! String, file: directory + "/" + (m["file"] as! String),
                         triangles: (m["triangles"] as! NSNumber).intValue, bboxMin: v("bbox_min"), bboxMax: v("bbox_max"),
                         orientation: m["orientation"] as! String, textures: (m["textures"] as! NSNumber).intValue)
        }
    }

    static func loader() -> MeshLoader {
        MeshLoader(decoders: TextureDecoders(jpeg: TurboJPEGDecoder(), png: LibPNGDecoder(), webp: LibWebPDecoder()),
                   geometry: GeometryDecoders(meshopt: MeshoptDecoder(), draco: DracoDecoder()))
    }
}

/// A scratch folder under the system temporary directory, removed by the caller.
func makeScratchDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "lorgnette-meshes-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
