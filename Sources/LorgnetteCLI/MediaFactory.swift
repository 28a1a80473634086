import Capture
import Foundation
import Inputs
import Media

/// Why the CLI refuses a path or an option: printed as one line, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The CLI's side of inputs and outputs: inputs are opened by `Inputs.InputOpener` (the one way in,
/// shared with the benchmarks and tests), given the demo's portrait from `Models/`; sinks are chosen
/// by the output path's extension (or by being a folder).
enum MediaFactory {
    static let inputHelp = InputOpener.inputHelp
    static let outputHelp = "- (raw MJPEG on standard output), .mjpeg/.mjpg raw stream, .avi (MJPEG, OpenDML past 1 GB), or a folder (frame_000000.jpg, ...)"

    /// Opens `spec` (see `InputOpener`). Throws a one-line error for a missing file, an unknown
    /// format or a damaged container.
    static func openSource(_ spec: String, framesPerSecond: Double? = nil) throws -> (source: FrameSource, kind: InputKind) {
        if isCameraPath(spec) { return (try openCamera(spec, size: "640x480"), .camera) }
        let demo = try? ModelsDirectory.file("demo/astronaut.jpg").path
        return try InputOpener(framesPerSecond: framesPerSecond, demoPhotoPath: demo).open(spec)
    }

    /// A webcam at `path` (`/dev/videoN` or a udev link), capturing at `size` ("WxH") and 30 fps: the
    /// one place the commands open cameras (`--device`, or a device given as `--input`).
    static func openCamera(_ path: String, size: String) throws -> FrameSource {
        let (w, h) = try RecordCommand.parseSize(size)
        return try V4L2Camera(path: path, request: CaptureRequest(width: w, height: h, framesPerSecond: 30))
    }

    /// A character device under /dev (a camera named as an input).
    static func isCameraPath(_ spec: String) -> Bool {
        guard spec.hasPrefix("/dev/") else { return false }
        var st = stat()
        return stat(spec, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR
    }

    /// Creates the sink for `path`: by extension, or a folder when `path` has none or is a folder.
    /// `followTimestamps` (AVI only) keeps real-time playback for sources whose frames arrive
    /// slower than `framesPerSecond` (a camera dropping frames): see `AVIFileSink.Timing`.
    static func makeSink(_ path: String, framesPerSecond: Double, followTimestamps: Bool = false) throws -> FrameSink {
        if path == "-" {
            standardOutputCarriesFrames.store(true, ordering: .relaxed)
            return try MJPEGFileSink(standardOutput: ())
        }
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

    /// True when `spec` is a photo or a folder of images: inputs whose faces may have any size and
    /// position, which `PhotoFaceDetector` finds (video keeps the tracker's plain detector).
    static func isStills(_ spec: String) -> Bool { InputOpener.kind(of: spec)?.isStills ?? false }

    /// Throws "PATH: no such folder" for the first of `paths` that is not a folder (dataset options).
    static func requireFolders(_ paths: [String]) throws {
        for path in paths where !isDirectory(path) { throw CLIError("\(path): no such folder") }
    }

    static func hasExtension(_ path: String, _ extensions: Set<String>) -> Bool { InputOpener.hasExtension(path, extensions) }
    static func isDirectory(_ path: String) -> Bool { InputOpener.isDirectory(path) }
}
