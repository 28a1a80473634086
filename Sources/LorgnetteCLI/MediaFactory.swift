import Foundation
import Media

/// Why the CLI refuses a path or an option: printed as one line, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Options an input may honour when it is opened.
struct SourceOptions {
    /// Overrides the input's own timing (constant rate).
    var framesPerSecond: Double?
}

/// One kind of input the CLI understands: how to recognise its spec and how to open it.
struct SourceKind: Sendable {
    /// Short human name, e.g. "raw MJPEG stream".
    let name: String
    let matches: @Sendable (_ spec: String) -> Bool
    let open: @Sendable (_ spec: String, _ options: SourceOptions) throws -> FrameSource
}

/// Opens frame sources and sinks from command-line paths, choosing the container by extension
/// (or by being a folder). New kinds of input (a camera, the embedded demo clip) are added to
/// `sourceKinds`, and every command that takes an input accepts them.
enum MediaFactory {
    /// Input kinds, tried in order; the first whose `matches` accepts the spec opens it.
    static let sourceKinds: [SourceKind] = [
        SourceKind(name: "embedded demo source", matches: DemoInput.matches, open: DemoInput.open),
        SourceKind(name: "raw MJPEG stream", matches: { hasExtension($0, ["mjpeg", "mjpg"]) },
                   open: { try MJPEGStreamSource(path: $0, framesPerSecond: $1.framesPerSecond) }),
        SourceKind(name: "AVI", matches: { hasExtension($0, ["avi"]) },
                   open: { try AVIFileSource(path: $0, framesPerSecond: $1.framesPerSecond) }),
        SourceKind(name: "JPEG image", matches: { hasExtension($0, ["jpg", "jpeg"]) },
                   open: { try ImageFolderSource(path: $0, framesPerSecond: $1.framesPerSecond) }),
        SourceKind(name: "folder of JPEG images", matches: { isDirectory($0) },
                   open: { try ImageFolderSource(path: $0, framesPerSecond: $1.framesPerSecond) }),
    ]

    static let inputHelp = "demo (the embedded demo source), .mjpeg/.mjpg raw stream, .avi (MJPEG), .jpg/.jpeg image, or a folder of JPEG images"
    static let outputHelp = ".mjpeg/.mjpg raw stream, .avi (MJPEG, OpenDML past 1 GB), or a folder (frame_000000.jpg, ...)"

    /// Opens `spec` with the first matching kind. Throws a one-line error for a missing file,
    /// an unknown extension or a damaged container.
    static func openSource(_ spec: String, options: SourceOptions = SourceOptions()) throws -> (source: FrameSource, kind: SourceKind) {
        guard let kind = sourceKinds.first(where: { $0.matches(spec) }) else {
            if !FileManager.default.fileExists(atPath: spec) {
                throw CLIError("cannot open \(spec): No such file or directory")
            }
            throw CLIError("\(spec): unknown input format (expected \(inputHelp))")
        }
        return (try kind.open(spec, options), kind)
    }

    /// Creates the sink for `path`: by extension, or a folder when `path` has none or is a folder.
    /// `followTimestamps` (AVI only) keeps real-time playback for sources whose frames arrive
    /// slower than `framesPerSecond` (a camera dropping frames): see `AVIFileSink.Timing`.
    static func makeSink(_ path: String, framesPerSecond: Double, followTimestamps: Bool = false) throws -> FrameSink {
        if hasExtension(path, ["mjpeg", "mjpg"]) { return try MJPEGFileSink(path: path) }
        if hasExtension(path, ["avi"]) {
            return try AVIFileSink(path: path, framesPerSecond: framesPerSecond,
                                   timing: followTimestamps ? .followTimestamps : .constantRate)
        }
        if isDirectory(path) || path.hasSuffix("/") || (path as NSString).pathExtension.isEmpty {
            return try ImageFolderSink(directory: path)
        }
        throw CLIError("\(path): unknown output format (expected \(outputHelp))")
    }

    static func hasExtension(_ path: String, _ extensions: Set<String>) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
