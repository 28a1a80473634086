import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Output files named on the command line, opened the way a shell redirection opens them: created
/// or truncated in place. Foundation's `createFile(atPath:)` and atomic writes instead rename a
/// temporary file over the path, which, run as root, turns `/dev/null` into a regular file for the
/// whole machine (`track --json /dev/null` did exactly that).
///
/// Bytes go out through write(2), never `FileHandle.write(_:)`: that one cannot throw, so a full
/// disk (`/dev/full`) or a reader that closed the pipe raised an exception and crashed the run.
enum OutputFile {
    /// A text or byte stream being written: a file, or standard output for `-`.
    final class Stream {
        let name: String
        private var fd: Int32
        private let ownsDescriptor: Bool

        fileprivate init(fd: Int32, name: String, owns: Bool) {
            self.fd = fd
            self.name = name
            ownsDescriptor = owns
        }

        deinit { if ownsDescriptor && fd >= 0 { Glibc.close(fd) } }

        /// Writes all of `bytes`. Throws `ReaderClosed` when the program reading a pipe went away
        /// (EPIPE; SIGPIPE is ignored process-wide), a one-line `CLIError` for any other failure.
        func write(_ bytes: some Collection<UInt8>) throws {
            try Array(bytes).withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let r = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                    if r < 0 && errno == EINTR { continue }
                    if r < 0 && errno == EPIPE { throw ReaderClosed(name: name) }
                    if r <= 0 { throw CLIError("cannot write \(name): \(String(cString: strerror(r < 0 ? errno : EIO)))") }
                    done += r
                }
            }
        }

        func write(_ text: String) throws { try write(text.utf8) }

        /// Closes a file (standard output stays open). A failure the kernel reports only at close
        /// (a full disk on some file systems) is an error like a failed write.
        func close() throws {
            guard ownsDescriptor, fd >= 0 else { return }
            let r = Glibc.close(fd)
            fd = -1
            if r != 0 && errno != EINTR { throw CLIError("cannot write \(name): \(String(cString: strerror(errno)))") }
        }
    }

    /// The program reading our standard output (or a FIFO) closed it: the end of the run, not a failure.
    struct ReaderClosed: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name): the reader closed the pipe" }
    }

    /// A stream writing to `path` (created with mode 0644 if missing, truncated otherwise), or to
    /// standard output for `-`.
    static func open(_ path: String) throws -> Stream {
        if path == "-" { return Stream(fd: 1, name: "standard output", owns: false) }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        return Stream(fd: fd, name: path, owns: true)
    }

    /// Writes `bytes` to `path` in place (see `open`).
    static func write(_ bytes: some Collection<UInt8>, to path: String) throws {
        let stream = try open(path)
        do { try stream.write(bytes) } catch is ReaderClosed { throw CLIError("cannot write \(path): the reader closed the pipe") }
        try stream.close()
    }

    static func write(_ data: Data, to path: String) throws { try write([UInt8](data), to: path) }

    static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }
}
