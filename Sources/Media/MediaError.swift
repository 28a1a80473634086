/// Why a media file could not be opened, read or written. Each case renders as one line
/// that names the file, so the CLI can print it as is.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// The file or folder cannot be opened (`reason` is the system's words, e.g. "No such file or directory").
    case cannotOpen(path: String, reason: String)
    /// The container is damaged beyond what the reader can recover from.
    case corrupt(path: String, reason: String)
    /// The file is valid but uses something this code does not handle (e.g. an H.264 AVI).
    case unsupported(path: String, reason: String)
    /// A read or write failed part-way (disk full, I/O error).
    case io(path: String, reason: String)
    /// A write would exceed a documented limit of the format or of this writer.
    case limitExceeded(path: String, reason: String)
    /// A frame handed to a sink cannot be stored (not a JPEG, size differs from the first frame).
    case invalidFrame(path: String, reason: String)
    /// The program reading a pipe we write to went away (EPIPE): the end of a run, not a failure.
    case readerClosed(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let p, let r): return "cannot open \(p): \(r)"
        case .corrupt(let p, let r): return "\(p): corrupt: \(r)"
        case .unsupported(let p, let r): return "\(p): unsupported: \(r)"
        case .io(let p, let r): return "\(p): I/O error: \(r)"
        case .limitExceeded(let p, let r): return "\(p): \(r)"
        case .invalidFrame(let p, let r): return "\(p): invalid frame: \(r)"
        case .readerClosed(let p): return "\(p): the reader closed the pipe"
        }
    }
}
