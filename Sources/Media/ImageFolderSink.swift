import Foundation

/// Writes each frame as its own JPEG file in a folder: `frame_000000.jpg`, `frame_000001.jpg`, ...
/// (six digits, more when needed), so names sort in frame order. Creates the folder if missing;
/// existing files with the same names are replaced. Timestamps are not stored.
public final class ImageFolderSink: FrameSink {
    public let directory: String
    public private(set) var framesWritten = 0

    public init(directory: String) throws {
        self.directory = directory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw MediaError.cannotOpen(path: directory, reason: "exists and is not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw MediaError.cannotOpen(path: directory, reason: "cannot create directory")
            }
        }
    }

    /// The file name of frame `index`.
    public static func fileName(index: Int) -> String {
        let digits = String(index)
        return "frame_" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".jpg"
    }

    public func write(jpeg: [UInt8], timestampSeconds: Double) throws {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw MediaError.invalidFrame(path: directory, reason: "frame \(framesWritten) does not start with a JPEG SOI marker")
        }
        let path = (directory as NSString).appendingPathComponent(Self.fileName(index: framesWritten))
        let file = try OutputFile(path: path)
        file.append(JPEGHuffmanTables.insertingStandardTablesIfMissing(jpeg))
        try file.close()
        framesWritten += 1
    }

    public func finish() throws {}
}
