import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// Reading and writing debug images on disk. The format follows the file extension:
/// `.png` (written only), `.pgm` / `.ppm` / `.pnm` (read and written). Every failure (unknown
/// extension, empty image, I/O error, malformed file) throws `ImageFileError` with the path.
public enum ImageFiles {
    public static func write(_ image: GrayImage, to path: String) throws {
        try checkNotEmpty(image.width, image.height, path)
        try write(bytes(for: path, png: { try LibPNGEncoder.encode(image) }, pnm: { NetPBM.encode(image) }), to: path)
    }

    public static func write(_ image: RGBImage, to path: String) throws {
        try checkNotEmpty(image.width, image.height, path)
        try write(bytes(for: path, png: { try LibPNGEncoder.encode(image) }, pnm: { NetPBM.encode(image) }), to: path)
    }

    /// RGBA goes only to PNG (Netpbm has no alpha in P5/P6).
    public static func write(_ image: RGBAImage, to path: String) throws {
        guard path.lowercased().hasSuffix(".png") else { throw ImageFileError("\(path): RGBA images can only be written as .png") }
        try checkNotEmpty(image.width, image.height, path)
        try write(bytes(for: path, png: { try LibPNGEncoder.encode(image) }, pnm: { [] }), to: path)
    }

    /// Reads a PGM/PPM file.
    public static func readNetPBM(_ path: String) throws -> NetPBM.Image {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ImageFileError("\(path): cannot read (\(error))")
        }
        do { return try NetPBM.decode([UInt8](data)) } catch { throw ImageFileError("\(path): \(error.description)") }
    }

    private static func checkNotEmpty(_ w: Int, _ h: Int, _ path: String) throws {
        if w == 0 || h == 0 { throw ImageFileError("\(path): cannot write an empty \(w)x\(h) image") }
    }

    private static func bytes(for path: String, png: () throws -> [UInt8], pnm: () -> [UInt8]) throws -> [UInt8] {
        let p = path.lowercased()
        if p.hasSuffix(".png") {
            do { return try png() } catch { throw ImageFileError("\(path): \(error)") }
        }
        if p.hasSuffix(".pgm") || p.hasSuffix(".ppm") || p.hasSuffix(".pnm") { return pnm() }
        throw ImageFileError("\(path): unknown image extension (use .png, .pgm, .ppm or .pnm)")
    }

    /// Written in place through open(2)/write(2): the failure is the system's one line ("No such
    /// file or directory" for a missing folder, "No space left on device"), where Foundation's
    /// `Data.write` gave `Error Domain=NSCocoaErrorDomain Code=4 ...`.
    private static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImageFileError("\(path): cannot write: \(String(cString: strerror(errno)))") }
        var failure: Int32?
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let r = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if r < 0 && errno == EINTR { continue }
                if r <= 0 { failure = r < 0 ? errno : EIO; return }
                done += r
            }
        }
        if close(fd) != 0 && failure == nil && errno != EINTR { failure = errno }
        if let failure { throw ImageFileError("\(path): cannot write: \(String(cString: strerror(failure)))") }
    }
}

/// A file-level image I/O failure, with the path in its one-line message.
public struct ImageFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ message: String) { description = message }
}
