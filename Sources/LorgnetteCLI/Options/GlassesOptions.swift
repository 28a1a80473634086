import ArgumentParser
import Foundation

/// Which glasses to draw, declared once for `live` and `bench`. "Frame" means a video frame in this
/// code base; the spectacles are glasses, so the option is `--glasses`. `--frame` and `--frame-width`
/// stay as hidden aliases so existing scripts keep working.
struct GlassesOptions: ParsableArguments {
    @Option(help: "Glasses: catalogue id[:variant] (see `lorgnette catalogue`; default: the first) or a .gltf/.glb/.obj model file, a glTF optionally with :VARIANT (its KHR_materials_variants).")
    var glasses: String?

    @Option(help: ArgumentHelp("Old name of --glasses.", visibility: .hidden))
    var frame: String?

    @Option(name: .customLong("glasses-width"), help: "Width in mm of a model without real-world units.")
    var glassesWidth: Float?

    @Option(name: .customLong("frame-width"), help: ArgumentHelp("Old name of --glasses-width.", visibility: .hidden))
    var frameWidth: Float?

    @Option(name: .customLong("lens"), help: ArgumentHelp(
        "Part or material name to draw as a lens, instead of the guess (repeat or separate with commas; 'none': no guessing).",
        valueName: "NAME"))
    var lens: [String] = []

    /// The `--lens` names, commas split.
    var lensNames: [String] { lens.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty } }

    @Flag(name: .customLong("allow-outside-uris"), help: "Let a model file read buffers, textures and material libraries outside its own folder (absolute paths, '..').")
    var allowOutsideURIs = false

    /// The chosen glasses (nil: the catalogue's first).
    var choice: String? { glasses ?? frame }
    /// The width override in mm, when given.
    var widthMM: Float? { glassesWidth ?? frameWidth }

    func validate() throws {
        if glasses != nil && frame != nil { throw ValidationError("give --glasses or its old name --frame, not both") }
        if glassesWidth != nil && frameWidth != nil { throw ValidationError("give --glasses-width or its old name --frame-width, not both") }
        if let w = widthMM, !(w > 10 && w < 1000) { throw ValidationError("--glasses-width must be 10...1000 mm") }
    }
}
