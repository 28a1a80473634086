import Foundation

/// Frames from image files: either every image file in a folder (`.jpg`, `.png`, `.pgm`, ... by
/// name; `StillImageFormat.hasImageExtension`), in byte-wise name order (so `frame_000010.jpg`
/// follows `frame_000009.jpg`), or one single image file.
///
/// Each file is one frame, read when asked for and decoded by `decoder` by its content (format and
/// EXIF orientation); frame `i` is at `i / framesPerSecond` seconds (default 30). Files that cannot
/// be read or decoded are skipped and reported in `issues`.
public final class ImageFolderSource: FrameSource {
    public static let defaultFramesPerSecond = 30.0

    /// The image files, in delivery order.
    public let files: [String]
    public private(set) var info: SourceInfo
    private let framesPerSecond: Double
    private var nextIndex = 0
    private var delivered = 0
    private var log = IssueLog()
    private let decoder: StillImageDecoding

    public var issues: [String] { log.lines }

    /// `path` is a folder of images or a single image file.
    public init(path: String, decoder: StillImageDecoding, framesPerSecond: Double? = nil) throws {
        self.decoder = decoder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError.cannotOpen(path: path, reason: "No such file or directory")
        }
        if isDirectory.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw MediaError.cannotOpen(path: path, reason: "cannot list directory")
            }
            files = names.filter { StillImageFormat.hasImageExtension($0) }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                .map { (path as NSString).appendingPathComponent($0) }
        } else {
            files = [path]
        }
        self.framesPerSecond = framesPerSecond ?? Self.defaultFramesPerSecond
        info = SourceInfo(framesPerSecond: self.framesPerSecond, frameCount: files.count, codec: "MJPG")
        if let first = files.first, let file = try? RandomAccessFile(path: first),
           let bytes = try? file.read(at: 0, count: file.size), let size = try? decoder.uprightSize(of: bytes) {
            info.width = size.width
            info.height = size.height
            if let format = StillImageFormat(magic: bytes), format != .jpeg { info.codec = format.rawValue }
        }
    }

    public func nextFrame() throws -> Frame? {
        while nextIndex < files.count {
            let path = files[nextIndex]
            nextIndex += 1
            let bytes: [UInt8]
            do {
                let file = try RandomAccessFile(path: path)
                bytes = try file.read(at: 0, count: file.size)
            } catch {
                log.add("\(error); skipped")
                continue
            }
            let payload: Frame.Payload
            do { payload = try decoder.payload(of: bytes) } catch {
                log.add("\(path): \(error); skipped")
                continue
            }
            let index = delivered
            delivered += 1
            return Frame(payload: payload, timestampSeconds: Double(index) / framesPerSecond, sequence: index)
        }
        return nil
    }
}
