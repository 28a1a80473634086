import Foundation
import Media
#if canImport(Glibc)
import Glibc
#endif

/// The rule every writing command applies first, before it opens anything: an output must not be
/// one of the run's inputs. `live --input a.avi --output a.avi` used to leave a one-frame file in
/// place of the recording, and `measure --frames-json photo.jpg` overwrote the photo.
///
/// Files are compared as the kernel sees them (device and inode, `stat` following symlinks), so a
/// symlink or a hard link to an input is caught as well as the same spelling. An output that does
/// not exist yet cannot be an input. `-` (standard output) and character devices (`/dev/null`,
/// `/dev/full`, a virtual camera) are never an input's bytes. Besides the same file, two overlaps
/// through folders are refused: an output file that is one of the images a folder input reads,
/// and an output folder (`frame_000000.jpg`, ...) that would replace an input photo in it.
enum OutputSafety {
    /// Throws a one-line `CLIError` when one of `outputs` (option name and path) resolves to one of
    /// `inputs`; nil entries are options not given.
    static func refuseOverwritingInputs(outputs: [(option: String, path: String?)], inputs: [String?]) throws {
        let inputFiles = inputs.compactMap { $0 }.compactMap { path in FileIdentity(path).map { (path, $0) } }
        guard !inputFiles.isEmpty else { return }
        for case let (option, path?) in outputs {
            guard let output = FileIdentity(path), output.isFileOrFolder else { continue }
            for (input, identity) in inputFiles {
                if identity == output {
                    throw CLIError("\(option) \(path) is the input \(input) (the same file); choose another output")
                }
                if identity.isFolder, !output.isFolder, StillImageFormat.hasImageExtension(path),
                   FileIdentity(parentOf: path) == identity {
                    throw CLIError("\(option) \(path) is one of the images the input folder \(input) reads; choose another output")
                }
                if output.isFolder, !identity.isFolder, FileIdentity(parentOf: input) == output,
                   isFolderSinkName((input as NSString).lastPathComponent) {
                    throw CLIError("\(option) \(path) would replace the input \(input) with a frame; choose another output")
                }
            }
        }
    }

    /// Whether `name` is one `ImageFolderSink` writes: `frame_` and six or more digits, `.jpg`.
    private static func isFolderSinkName(_ name: String) -> Bool {
        guard name.hasPrefix("frame_"), name.hasSuffix(".jpg") else { return false }
        let digits = name.dropFirst(6).dropLast(4)
        return digits.count >= 6 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// A file as the kernel identifies it: device and inode, and its type.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let mode: UInt32

    /// Nil when `path` does not exist (or cannot be looked up), or is `-`.
    init?(_ path: String) {
        guard path != "-" else { return nil }
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        mode = UInt32(st.st_mode) & UInt32(S_IFMT)
    }

    /// The folder holding `path` (its parent in the path as written; symlinks in it followed).
    init?(parentOf path: String) {
        let parent = (path as NSString).deletingLastPathComponent
        self.init(parent.isEmpty ? "." : parent)
    }

    var isFolder: Bool { mode == UInt32(S_IFDIR) }
    /// Regular files and folders hold an input's bytes; devices, pipes and sockets do not.
    var isFileOrFolder: Bool { isFolder || mode == UInt32(S_IFREG) }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }
}
