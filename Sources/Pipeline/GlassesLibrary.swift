import Compositor
import FaceModel
import Foundation
import GlassesCatalogue
import Meshes

/// Turns what a user names — a catalogue frame `id[:variant]` or a `.gltf`/`.glb`/`.obj` path — into
/// `FittedGlasses`. Metric glTF keeps its size; a unitless model gets `frameWidthOverrideMM`, else the
/// catalogue's declared width, else `GlassesNormalizer.defaultFrameWidthMM`.
/// Not `Sendable` (the mesh loader holds codec state): keep one per thread, or guard it with a lock.
public struct GlassesLibrary {
    public let catalogue: GlassesCatalogue?
    public let loader: MeshLoader
    public let face: MeanFace
    public var frameWidthOverrideMM: Float?
    /// Part or material names to draw as lenses instead of `LensFinder`'s guess (`--lens`); empty:
    /// the catalogue entry's `lenses`, else the guess.
    public var lensNames: [String]

    public init(catalogue: GlassesCatalogue?, loader: MeshLoader, face: MeanFace, frameWidthOverrideMM: Float? = nil, lensNames: [String] = []) {
        self.lensNames = lensNames
        self.catalogue = catalogue
        self.loader = loader
        self.face = face
        self.frameWidthOverrideMM = frameWidthOverrideMM
    }

    /// The catalogue's first frame when `spec` is nil.
    public func load(_ spec: String?) throws -> FittedGlasses {
        let (mesh, declaredWidth, name) = try loadMesh(spec)
        let normalized = GlassesNormalizer.normalize(mesh, declaredWidthMM: frameWidthOverrideMM ?? declaredWidth)
        guard normalized.mesh.bounds != nil else { throw PipelineError("\(name): model is empty") }
        let catalogueLenses = spec.flatMap { try? catalogue?.lookup($0).entry.lenses } ?? nil
        let found = LensFinder.find(in: normalized, named: lensNames.isEmpty ? catalogueLenses ?? [] : lensNames)
        let canonical = found.glasses
        let unmatched = found.unmatchedNames.map { "no part or material is named '\($0)' (--lens)" }
        return FittedGlasses(name: name, canonical: canonical, fit: GlassesFit(glasses: canonical, face: face),
                             warnings: mesh.warnings + unmatched, lenses: found.lenses)
    }

    private func loadMesh(_ spec: String?) throws -> (Mesh, Float?, String) {
        do {
            if let spec, let reference = ModelReference(spec) {
                let name = (reference.path as NSString).lastPathComponent + (reference.variant.map { ":" + $0 } ?? "")
                return (try loader.load(reference), nil, name)
            }
            if let spec, FileManager.default.fileExists(atPath: spec) {
                throw PipelineError("\(spec): unsupported model format (expected .gltf, .glb or .obj)")
            }
            guard let catalogue else { throw PipelineError("no frame catalogue to look up '\(spec ?? "")' in") }
            guard let id = spec ?? catalogue.entries.first?.id else { throw PipelineError("the frame catalogue is empty") }
            let (mesh, width) = try catalogue.resolve(id, loader: loader)
            return (mesh, width, id)
        } catch let e as CatalogueError {
            throw PipelineError(e.description)
        } catch let e as MeshError {
            throw PipelineError(e.description)
        }
    }
}
