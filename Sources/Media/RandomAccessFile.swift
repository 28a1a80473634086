#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only file read at explicit offsets (`pread`), so a container reader can jump between
/// its index and its frames without loading the file.
public final class RandomAccessFile {
    public let path: String
    private var fd: Int32
    /// Size in bytes when opened.
    public let size: Int

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MediaError.cannotOpen(path: path, reason: systemErrorText()) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = systemErrorText()
            Glibc_close(fd)
            throw MediaError.cannotOpen(path: path, reason: reason)
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            Glibc_close(fd)
            throw MediaError.cannotOpen(path: path, reason: "is a directory")
        }
        size = Int(st.st_size)
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { Glibc_close(fd); fd = -1 }
    }

    /// Up to `count` bytes at `offset`; fewer only at the end of the file.
    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let n = min(count, size - offset)
        var out = [UInt8](repeating: 0, count: n)
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < n {
                let r = pread(fd, buf.baseAddress! + done, n - done, off_t(offset + done))
                if r < 0 {
                    if errno == EINTR { continue }
                    throw MediaError.io(path: path, reason: systemErrorText())
                }
                if r == 0 { break }
                done += r
            }
        }
        if done < n { out.removeLast(n - done) }
        return out
    }
}

/// `close(2)` under a name that does not clash with the classes' own `close()` methods.
@inline(__always) func Glibc_close(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
