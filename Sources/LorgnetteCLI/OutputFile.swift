import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Output files named on the command line, opened the way a shell redirection opens them: created
/// or truncated in place. Foundation's `createFile(atPath:)` and atomic writes instead rename a
/// temporary file over the path, which, run as root, turns `/dev/null` into a regular file for the
/// whole machine (`track --json /dev/null` did exactly that).
enum OutputFile {
    /// A handle writing to `path` (created with mode 0644 if missing, truncated otherwise).
    static func open(_ path: String) throws -> FileHandle {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Writes `data` to `path` in place (see `open`).
    static func write(_ data: Data, to path: String) throws {
        let handle = try open(path)
        defer { try? handle.close() }
        do { try handle.write(contentsOf: data) } catch { throw CLIError("cannot write \(path): \(error.localizedDescription)") }
    }

    static func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }
}
