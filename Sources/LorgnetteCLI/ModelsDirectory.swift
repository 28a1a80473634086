import Foundation

/// Finds the project's `Models/` folder (trained models, the demo portrait, the frame catalogue).
///
/// Order: `$LORGNETTE_MODELS`; then a `Models` folder beside the executable or in one of its parent
/// folders (a SwiftPM build lives at `<repo>/.build/<triple>/<config>/lorgnette`); then `./Models`.
enum ModelsDirectory {
    static func locate() throws -> URL {
        let fm = FileManager.default
        func isModels(_ url: URL) -> Bool {
            var dir: ObjCBool = false
            return fm.fileExists(atPath: url.path, isDirectory: &dir) && dir.boolValue
        }
        if let env = ProcessInfo.processInfo.environment["LORGNETTE_MODELS"], !env.isEmpty {
            let url = URL(fileURLWithPath: env)
            guard isModels(url) else { throw CLIError("LORGNETTE_MODELS=\(env) is not a folder") }
            return url
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Models")
            if isModels(candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        let cwd = URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("Models")
        if isModels(cwd) { return cwd }
        throw CLIError("cannot find the Models folder (set LORGNETTE_MODELS to the repository's Models/)")
    }

    /// The file `name` inside `Models/`, which must exist.
    static func file(_ name: String) throws -> URL {
        let url = try locate().appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CLIError("missing model file \(url.path)")
        }
        return url
    }
}

extension ModelsDirectory {
    /// `Models/frames/catalogue.json` of the located Models folder; the relative default when none is found
    /// (commands then report the missing file).
    static var catalogueFile: String {
        (try? locate().appendingPathComponent("frames/catalogue.json").path) ?? "Models/frames/catalogue.json"
    }
}
