#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written front to back with an append buffer, plus in-place patches of bytes already
/// written (`pwrite`) for container headers whose sizes are only known later.
///
/// Sinks call `flush()` at the end of every frame: data handed to the kernel survives the process
/// being killed, which is what makes an interrupted recording playable.
final class OutputFile {
    let path: String
    private var fd: Int32
    private var pending: [UInt8] = []
    /// Bytes written so far, including those still in the append buffer.
    private(set) var size = 0

    /// Creates or truncates `path`.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw MediaError.cannotOpen(path: path, reason: systemErrorText()) }
        pending.reserveCapacity(1 << 16)
    }

    /// Writes to a descriptor this process already has (standard output for `-o -`): a duplicate is
    /// written and closed, the original stays open. Nothing is ever patched in a pipe.
    init(duplicating descriptor: Int32, name: String) throws {
        path = name
        fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard fd >= 0 else { throw MediaError.cannotOpen(path: name, reason: systemErrorText()) }
        pending.reserveCapacity(1 << 16)
    }

    deinit { try? close() }

    func append(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        size += bytes.count
    }

    func append(zeros count: Int) {
        pending.append(contentsOf: repeatElement(0, count: count))
        size += count
    }

    /// Hands buffered bytes to the kernel.
    func flush() throws {
        guard !pending.isEmpty else { return }
        try writeAll(pending, at: nil)
        pending.removeAll(keepingCapacity: true)
    }

    /// Overwrites bytes at `offset`, which must already have been flushed.
    func patch(_ bytes: [UInt8], at offset: Int) throws {
        precondition(offset + bytes.count <= size - pending.count, "patching unflushed bytes")
        try writeAll(bytes, at: offset)
    }

    func close() throws {
        guard fd >= 0 else { return }
        defer { Glibc_close(fd); fd = -1 }
        try flush()
    }

    private func writeAll(_ bytes: [UInt8], at offset: Int?) throws {
        guard fd >= 0 else { throw MediaError.io(path: path, reason: "file already closed") }
        var done = 0
        try bytes.withUnsafeBytes { buf in
            while done < buf.count {
                let r: Int
                if let offset {
                    r = pwrite(fd, buf.baseAddress! + done, buf.count - done, off_t(offset + done))
                } else {
                    r = write(fd, buf.baseAddress! + done, buf.count - done)
                }
                if r < 0 {
                    if errno == EINTR { continue }
                    // With SIGPIPE ignored (the CLI does), a reader that left shows up here.
                    if errno == EPIPE { throw MediaError.readerClosed(path: path) }
                    throw MediaError.io(path: path, reason: systemErrorText())
                }
                done += r
            }
        }
    }
}
