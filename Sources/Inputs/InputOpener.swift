import Foundation
import Media

/// Why an input cannot be opened: one line naming it, printed as is by every command.
public struct InputError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What kind of input a spec turned out to be.
public enum InputKind: String, Sendable {
    case demo = "embedded demo source"
    case mjpegStream = "raw MJPEG stream"
    case avi = "AVI"
    case photo = "photo"
    case imageFolder = "folder of images"
    case standardInput = "MJPEG stream on standard input"
    /// A V4L2 camera (opened by the caller's capture adapter, not here: Inputs holds no device code).
    case camera = "camera"

    /// One still picture.
    public var isPhoto: Bool { self == .photo }
    /// Still pictures (one, or a folder of them), whose faces may have any size and position.
    public var isStills: Bool { self == .photo || self == .imageFolder }
    /// Can be opened again from its start (a pre-scan, a kiosk loop): everything but a pipe.
    public var isReopenable: Bool { self != .standardInput && self != .camera }
}

/// The one way in: every command that reads frames from a file, a folder, a photo or the demo
/// opens them here, so all accept the same inputs with the same errors.
///
/// A spec is `demo` / `demo:WxH`; `-` (a raw MJPEG stream on standard input, as `ffmpeg -f mjpeg -`
/// or GStreamer's `jpegenc ! fdsink` write it); a folder (its image files in name order); a `.mjpeg`/`.mjpg` raw
/// stream; or a file recognised by its content: an AVI (RIFF "AVI "), or a photo (JPEG, PNG,
/// PGM/PPM: `StillImageFormat`) whatever its extension says.
public struct InputOpener {
    /// Options an input may honour when it is opened.
    public var framesPerSecond: Double?
    /// The demo's portrait (`Models/demo/astronaut.jpg`); nil where no Models folder was found.
    public var demoPhotoPath: String?

    public init(framesPerSecond: Double? = nil, demoPhotoPath: String? = nil) {
        self.framesPerSecond = framesPerSecond
        self.demoPhotoPath = demoPhotoPath
    }

    public static let inputHelp = "demo (the embedded demo source), - (MJPEG on standard input), .mjpeg/.mjpg raw stream, .avi (MJPEG), a photo (JPEG, PNG, PGM/PPM, by content), or a folder of images"

    /// The kind `spec` would be opened as, without opening it (nil: not an input).
    public static func kind(of spec: String) -> InputKind? {
        if DemoInput.matches(spec) { return .demo }
        if spec == "-" { return .standardInput }
        // A character device is a camera: never read from it here (a V4L2 read() would start capturing).
        var st = stat()
        if stat(spec, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR { return .camera }
        if isDirectory(spec) { return .imageFolder }
        if hasExtension(spec, ["mjpeg", "mjpg"]) { return .mjpegStream }
        guard let head = try? RandomAccessFile(path: spec).read(at: 0, count: 12) else {
            // Unreadable: name the kind by extension so the error comes from the right reader.
            return hasExtension(spec, ["avi"]) ? .avi : nil
        }
        if head.count >= 12, Array(head[0 ..< 4]) == Array("RIFF".utf8), Array(head[8 ..< 12]) == Array("AVI ".utf8) { return .avi }
        if StillImageFormat(magic: head) != nil { return .photo }
        if hasExtension(spec, ["avi"]) { return .avi }
        return nil
    }

    /// Opens `spec`. Throws a one-line error for a missing file, an unknown format or a damaged container.
    public func open(_ spec: String) throws -> (source: FrameSource, kind: InputKind) {
        guard let kind = Self.kind(of: spec) else {
            if !FileManager.default.fileExists(atPath: spec) {
                throw InputError("cannot open \(spec): No such file or directory")
            }
            throw InputError("\(spec): unknown input format (accepted: \(Self.inputHelp))")
        }
        switch kind {
        case .demo:
            guard let demoPhotoPath else { throw InputError("\(spec): the demo's portrait (Models/demo/astronaut.jpg) was not found") }
            return (try DemoInput.open(spec, photoPath: demoPhotoPath, framesPerSecond: framesPerSecond), kind)
        case .mjpegStream: return (try MJPEGStreamSource(path: spec, framesPerSecond: framesPerSecond), kind)
        case .standardInput: return (try MJPEGStreamSource(standardInput: (), framesPerSecond: framesPerSecond), kind)
        case .camera: throw InputError("\(spec): a camera is opened by the capture adapter (the CLI's MediaFactory), not by InputOpener")
        case .avi: return (try AVIFileSource(path: spec, framesPerSecond: framesPerSecond), kind)
        case .photo, .imageFolder:
            return (try ImageFolderSource(path: spec, decoder: PhotoDecoder(), framesPerSecond: framesPerSecond), kind)
        }
    }

    /// One photograph, upright, as `landmarks` and `measure` read it.
    public static func readPhoto(_ path: String) throws -> Frame.Payload {
        let bytes: [UInt8]
        do {
            let file = try RandomAccessFile(path: path)
            bytes = try file.read(at: 0, count: file.size)
        } catch {
            throw InputError("\(error)")
        }
        do { return try PhotoDecoder().payload(of: bytes) } catch { throw InputError("\(path): \(error)") }
    }

    public static func hasExtension(_ path: String, _ extensions: Set<String>) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    public static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
