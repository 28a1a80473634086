import EyeglassesTraining
import FaceData
import Foundation
import Imaging
import Inputs
import JPEGCodec
import Pipeline

/// What `train eyeglasses` and `eval eyeglasses` share: the faces68 photos in colour with their
/// annotation, and every pair of glasses the renderer can draw on them.
enum EyeglassesData {
    /// The photo decoded in colour (the renderer draws in colour; the classifier reads its luma) and its 68 points.
    static func load(_ entry: FaceDataset.Entry) throws -> (RGBImage, [SIMD2<Float>]) {
        let rgb = try PayloadDecoding.colour(of: InputOpener.readPhoto(entry.imagePath), decoder: TurboJPEGDecoder())
        guard let text = try? String(contentsOfFile: entry.pointsPath, encoding: .utf8) else { throw CLIError("cannot read \(entry.pointsPath)") }
        return (rgb, try PTSFile.parse(text))
    }

    /// Every catalogue frame in every colour, then the glTF/OBJ models of `modelsFolder` (the shared
    /// eight, sized as `live` sizes them), named for the report.
    static func glasses(modelsFolder: String?) throws -> [RenderableGlasses] {
        let library = try PipelineFactory.glassesLibrary()
        var out: [RenderableGlasses] = []
        for entry in library.catalogue?.entries ?? [] {
            let specs = entry.variants.isEmpty ? [entry.id] : entry.variants.map { entry.id + ":" + $0.id }
            for spec in specs { out.append(RenderableGlasses(name: spec, fit: try library.load(spec).fit)) }
        }
        guard let modelsFolder else { return out }
        let external = try PipelineFactory.glassesLibrary(allowsFilesOutsideFolder: true)
        let fm = FileManager.default
        for sub in (try? fm.contentsOfDirectory(atPath: modelsFolder))?.sorted() ?? [] {
            let dir = modelsFolder + "/" + sub
            for file in (try? fm.contentsOfDirectory(atPath: dir))?.sorted() ?? [] where [".glb", ".gltf"].contains(where: file.lowercased().hasSuffix) {
                do {
                    let g = try external.load(dir + "/" + file)
                    out.append(RenderableGlasses(name: file, fit: g.fit))
                } catch {
                    printError("eyeglasses: skipping \(dir)/\(file): \(error)")
                }
            }
        }
        return out
    }
}
