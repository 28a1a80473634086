import Foundation

/// Frames from JPEG files: either every `.jpg`/`.jpeg` file in a folder, in byte-wise name
/// order (so `frame_000010.jpg` follows `frame_000009.jpg`), or one single image file.
///
/// Each file is one frame, read when asked for; frame `i` is at `i / framesPerSecond` seconds
/// (default 30). Files that cannot be read or are not JPEGs are skipped and reported in `issues`.
public final class ImageFolderSource: FrameSource {
    public static let defaultFramesPerSecond = 30.0

    /// The image files, in delivery order.
    public let files: [String]
    public private(set) var info: SourceInfo
    private let framesPerSecond: Double
    private var nextIndex = 0
    private var delivered = 0
    private var log = IssueLog()

    public var issues: [String] { log.lines }

    /// `path` is a folder of JPEGs or a single JPEG file.
    public init(path: String, framesPerSecond: Double? = nil) throws {
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
            files = names.filter { Self.isJPEGName($0) }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                .map { (path as NSString).appendingPathComponent($0) }
        } else {
            files = [path]
        }
        self.framesPerSecond = framesPerSecond ?? Self.defaultFramesPerSecond
        info = SourceInfo(framesPerSecond: self.framesPerSecond, frameCount: files.count, codec: "MJPG")
        if let first = files.first, let bytes = try? RandomAccessFile(path: first).read(at: 0, count: 1 << 16),
           let header = JPEGFrameHeader(bytes) {
            info.width = header.width
            info.height = header.height
        }
    }

    /// True for names ending in `.jpg` or `.jpeg`, any case.
    public static func isJPEGName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
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
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
                log.add("\(path) is not a JPEG (no SOI marker); skipped")
                continue
            }
            let index = delivered
            delivered += 1
            return Frame(payload: .jpeg(bytes), timestampSeconds: Double(index) / framesPerSecond, sequence: index)
        }
        return nil
    }
}
