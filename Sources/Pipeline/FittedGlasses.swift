import Compositor
import FaceModel
import Meshes

/// One pair of glasses ready to draw: the model normalised to the canonical glasses frame, fitted
/// to the metric mean face, with the name the user chose it by (catalogue `id[:variant]` or a file).
public struct FittedGlasses: Sendable {
    public let name: String
    public let canonical: CanonicalGlasses
    public let fit: GlassesFit
    /// What the loader noticed but could work around (e.g. an ignored extension).
    public let warnings: [String]
    /// The parts drawn as lenses and why (`LensFinder`), for the commands to print.
    public let lenses: [LensFinding]

    public init(name: String, canonical: CanonicalGlasses, fit: GlassesFit, warnings: [String] = [], lenses: [LensFinding] = []) {
        self.name = name
        self.lenses = lenses
        self.canonical = canonical
        self.fit = fit
        self.warnings = warnings
    }
}
