import ArgumentParser
import Foundation
import GlassesCatalogue
import Imaging
import JPEGCodec
import Media
import Meshes
import PNGCodec
import Pipeline

/// `lorgnette view MODEL|FRAME_ID`: a 3D viewer — a turntable orbit of a glasses model on a
/// neutral background written as a video, or one thumbnail PNG.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Render a glasses model or catalogue frame: a turntable video or a thumbnail PNG.",
        discussion: """
            MODEL is a .gltf, .glb or .obj file, or the id of a frame in the catalogue \
            (Models/frames/catalogue.json; see `lorgnette catalogue`), optionally with :VARIANT (a \
            colourway, or one of a glTF model's own KHR_materials_variants). Draco- and \
            meshopt-compressed glTF and WebP textures are read. \
            The model is normalised to the canonical glasses frame (millimetres; unitless models are \
            scaled to --frame-width) and lit by a studio light. With a .png output one view is written \
            (--yaw degrees, default 25); with .avi or .mjpeg a full orbit of --frames frames at 30 fps.
            """
    )

    @Argument(help: "Model file (.gltf, .glb, .obj) or catalogue frame id, either with an optional :VARIANT.")
    var model: String

    @Option(name: [.short, .long], help: "Output: .png (thumbnail), .avi or .mjpeg (turntable).")
    var output = "view.png"

    @Option(help: "Turntable frames for video output.")
    var frames = 72

    @Option(help: "Image size WxH.")
    var size = "640x480"

    // Unconditional: a negative angle (`--yaw -30`) is a value, not a flag.
    @Option(parsing: .unconditional, help: "View angle in degrees for a PNG (0 = front).")
    var yaw: Float = 25

    @Option(name: .customLong("frame-width"), help: "Frame width in mm for models without real-world units.")
    var frameWidth: Float?

    @Option(name: .customLong("catalogue"), help: "Catalogue file used to resolve frame ids (default: Models/frames/catalogue.json in the Models folder).")
    var catalogueOption: String?

    /// The catalogue file: as given, else the one in the Models folder found beside the executable.
    var catalogue: String { catalogueOption ?? ModelsDirectory.catalogueFile }

    @Option(name: .customLong("lens"), help: ArgumentHelp(
        "Part or material name to draw as a lens, instead of the guess (repeat or separate with commas; 'none': no guessing).",
        valueName: "NAME"))
    var lens: [String] = []

    @Flag(name: .customLong("no-antialiasing"), help: "Do not smooth silhouette edges.")
    var noAntialiasing = false

    @Flag(name: .customLong("allow-outside-uris"), help: "Let the model read buffers, textures and material libraries outside its own folder (absolute paths, '..').")
    var allowOutsideURIs = false

    func validate() throws {
        if !yaw.isFinite { throw ValidationError("--yaw must be a finite number of degrees, got '\(yaw)'") }
    }

    func run() throws {
        try reportingErrors("error") {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--output", output)], inputs: [model, catalogueOption])
            try render()
        }
    }

    func render() throws {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw CLIError("--size must be WxH between 16 and 8192, got '\(size)'")
        }
        guard frames >= 1 && frames <= 100_000 else { throw CLIError("--frames must be 1...100000") }
        if let fw = frameWidth, !(fw > 10 && fw < 1000) { throw CLIError("--frame-width must be 10...1000 mm") }
        let (mesh, declaredWidth, catalogueLenses) = try loadModel()
        let lensNames = lens.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        let found = LensFinder.find(in: GlassesNormalizer.normalize(mesh, declaredWidthMM: frameWidth ?? declaredWidth),
                                    named: lensNames.isEmpty ? catalogueLenses : lensNames)
        let canonical = found.glasses
        for warning in mesh.warnings { printError("warning: \(warning)") }
        for name in found.unmatchedNames { printError("warning: no part or material is named '\(name)' (--lens)") }
        printLenses(found.lenses, prefix: "view")
        guard let portrait = GlassesPortrait(canonical, antialiasing: !noAntialiasing) else { throw CLIError("\(model): model is empty") }
        func frame(yaw: Float) -> RGBImage { portrait.picture(yawDegrees: yaw, width: w, height: h) }
        if output.lowercased().hasSuffix(".png") {
            do { try ImageFiles.write(frame(yaw: yaw), to: output) } catch { throw CLIError("\(error)") }
            print("\(output): \(w)x\(h), \(portrait.mesh.triangleCount) triangles, width \(String(format: "%.1f", canonical.regions.frameWidth)) mm")
            return
        }
        guard MediaFactory.hasExtension(output, ["avi", "mjpeg", "mjpg"]) else {
            throw CLIError("\(output): unknown output format (expected .png, .avi or .mjpeg)")
        }
        Interrupt.install()
        let sink = try MediaFactory.makeSink(output, framesPerSecond: 30)
        let encoder = TurboJPEGEncoder()
        for i in 0..<frames {
            if Interrupt.requested { break }
            let image = frame(yaw: 360 * Float(i) / Float(frames))
            try sink.write(jpeg: try encoder.encode(image, quality: 90), timestampSeconds: Double(i) / 30)
        }
        try sink.finish()
        print("\(output): \(sink.framesWritten) frames \(w)x\(h), \(portrait.mesh.triangleCount) triangles")
    }

    /// The model's mesh and, for catalogue entries, the frame width and lens names they declare.
    func loadModel() throws -> (Mesh, Float?, [String]) {
        let loader = PipelineFactory.meshLoader(allowsFilesOutsideFolder: allowOutsideURIs)
        if let reference = ModelReference(model) {
            do { return (try loader.load(reference), nil, []) } catch let e as MeshError { throw CLIError(e.description) }
        }
        if FileManager.default.fileExists(atPath: model) {
            throw CLIError("\(model): unsupported model format (expected .gltf, .glb or .obj)")
        }
        do {
            let cat = try GlassesCatalogue.load(path: catalogue)
            let (mesh, width) = try cat.resolve(model, loader: loader)
            return (mesh, width, try cat.lookup(model).entry.lenses ?? [])
        } catch let e as CatalogueError {
            throw CLIError(e.description)
        } catch let e as MeshError {
            throw CLIError(e.description)
        }
    }
}
