import ArgumentParser
import Foundation
import GlassesCatalogue
import JPEGCodec
import Meshes
import PNGCodec

/// `lorgnette catalogue`: lists the frame catalogue; regenerates its procedural frames; adds
/// external models by path.
struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "List the glasses frame catalogue, regenerate its procedural frames, or add a model.",
        discussion: """
            Without options, lists every frame: id, name, ISO 8624 size (lens width □ bridge - temple \
            length, mm), variants and mesh file. --generate rewrites the procedural frames (OBJ, metres) \
            and catalogue.json next to the catalogue file, keeping external entries. --add MODEL --id ID \
            adds a .gltf/.glb/.obj model by path (--frame-width gives its width in mm when the file has \
            no real-world units).
            """
    )

    @Option(name: .customLong("catalogue"), help: "Catalogue file (default: Models/frames/catalogue.json in the Models folder).")
    var catalogueOption: String?

    /// The catalogue file: as given, else the one in the Models folder found beside the executable.
    var catalogue: String { catalogueOption ?? ModelsDirectory.catalogueFile }

    @Flag(help: "Regenerate the procedural frames and the catalogue file.")
    var generate = false

    @Option(help: "Add an external model file to the catalogue.")
    var add: String?

    @Option(help: "Id for --add (letters, digits, dashes).")
    var id: String?

    @Option(help: "Display name for --add.")
    var name: String?

    @Option(name: .customLong("frame-width"), help: "Frame width in mm for an added model without real-world units.")
    var frameWidth: Float?

    @Flag(help: "Print the catalogue as JSON.")
    var json = false

    func run() throws {
        try reportingErrors("error") {
            try execute()
        }
    }

    func execute() throws {
        var cat: GlassesCatalogue
        if generate {
            cat = (try? GlassesCatalogue.load(path: catalogue)) ?? GlassesCatalogue(path: catalogue)
            let ids = try cat.generateStandardFrames()
            try cat.save()
            print("generated \(ids.count) frames into \((catalogue as NSString).deletingLastPathComponent)")
        } else if add != nil && !FileManager.default.fileExists(atPath: catalogue) {
            cat = GlassesCatalogue(path: catalogue) // --add starts a new catalogue
        } else {
            cat = try GlassesCatalogue.load(path: catalogue)
        }
        if let add {
            guard let id else { throw CLIError("--add needs --id") }
            if let fw = frameWidth, !(fw > 10 && fw < 1000) { throw CLIError("--frame-width must be 10...1000 mm") }
            let loader = PipelineFactory.meshLoader()
            do { try cat.addExternal(id: id, name: name, modelPath: add, frameWidthMM: frameWidth, loader: loader) } catch let e as MeshError {
                throw CLIError(e.description)
            }
            try cat.save()
            print("added \(id) -> \(add)")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(cat.entries), as: UTF8.self))
            return
        }
        print("\(cat.entries.count) frames in \(catalogue)")
        for e in cat.entries {
            let size = e.size ?? (e.frameWidthMM.map { "width \(Int($0)) mm" } ?? "own units")
            let variants = e.variantIDs.isEmpty ? "-" : e.variantIDs.joined(separator: ", ")
            print("  \(e.id.padding(toLength: 24, withPad: " ", startingAt: 0)) \(e.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(size.padding(toLength: 12, withPad: " ", startingAt: 0)) [\(variants)]  \(cat.meshPath(e))")
        }
    }
}
