#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sliding window over a file read front to back: the bytes from the oldest offset the caller
/// still needs up to what has been read so far. Memory stays at about one frame plus one read
/// chunk however large the file is.
final class StreamWindow {
    let path: String
    private var fd: Int32
    /// Bytes at file offsets `start ..< start + bytes.count`.
    private(set) var bytes: [UInt8] = []
    /// File offset of `bytes[0]`.
    private(set) var start = 0
    private(set) var reachedEOF = false
    private var chunk: [UInt8]

    var end: Int { start + bytes.count }

    init(path: String, chunkSize: Int = 1 << 20) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MediaError.cannotOpen(path: path, reason: systemErrorText()) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            Glibc_close(fd)
            throw MediaError.cannotOpen(path: path, reason: "is a directory")
        }
        chunk = [UInt8](repeating: 0, count: chunkSize)
    }

    /// Reads a descriptor this process already has (standard input for `--input -`) through a
    /// duplicate, which `close` closes; the original stays open.
    init(duplicating descriptor: Int32, name: String, chunkSize: Int = 1 << 20) throws {
        path = name
        fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard fd >= 0 else { throw MediaError.cannotOpen(path: name, reason: systemErrorText()) }
        chunk = [UInt8](repeating: 0, count: chunkSize)
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc_close(fd); fd = -1 }
    }

    @inline(__always) subscript(offset: Int) -> UInt8 { bytes[offset - start] }

    /// Makes sure the byte at `offset` is loaded, reading further as needed and dropping bytes
    /// before `keepFrom`. Returns false when the file ends before `offset`.
    func ensure(_ offset: Int, keepFrom: Int) throws -> Bool {
        while offset >= end {
            if !(try readMore(keepFrom: keepFrom)) { return false }
        }
        return true
    }

    /// Reads one more chunk, first dropping bytes before `keepFrom`. Returns false at end of file.
    func readMore(keepFrom: Int) throws -> Bool {
        discard(before: keepFrom)
        if reachedEOF || fd < 0 { return false }
        while true {
            let r = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if r < 0 {
                if errno == EINTR { continue }
                throw MediaError.io(path: path, reason: systemErrorText())
            }
            if r == 0 { reachedEOF = true; return false }
            bytes.append(contentsOf: chunk[0..<r])
            return true
        }
    }

    /// Forgets bytes before `offset` (they will not be needed again).
    func discard(before offset: Int) {
        let drop = min(max(0, offset - start), bytes.count)
        if drop > 0 {
            bytes.removeFirst(drop)
            start += drop
        }
    }

    /// A copy of the bytes at `range`, which must be loaded.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(bytes[(range.lowerBound - start)..<(range.upperBound - start)])
    }

    /// Where `scanEntropyCodedData` stopped.
    enum EntropyScan: Equatable {
        /// At a marker that ends the entropy-coded data (the offset of its `FF`), or at the first
        /// offset past the limit.
        case stop(Int)
        /// The loaded bytes ran out: scanning resumes at this offset once more is loaded (an `FF`
        /// that was the last loaded byte, or `end`).
        case needMore(resumeAt: Int)
    }

    /// Walks entropy-coded JPEG data (ISO 10918-1, F.1.2.3) from `from`, which must be loaded,
    /// over the loaded bytes: skips stuffed `FF 00`, restart markers `FF D0`-`FF D7` and fill
    /// `FF FF`, and stops at any other marker or at the first offset past `limit`.
    ///
    /// This is the splitter's inner loop, over every byte of every frame. Written as calls to
    /// `firstIndex(of:from:)` and the subscript per `FF`, each call paid, once the module kept
    /// Swift's checks, a dynamic exclusivity check on `bytes` (swift_beginAccess, 9 % of the
    /// split in `perf`) and a bounds check: the 8.3 MB liveportrait_d3 clip split in 2.45 ms instead
    /// of 1.66 ms with -Ounchecked (median p0). One access per loaded block, with `memchr` over a
    /// pointer, splits it in 1.55 ms, checked (Bench/README.md, "Checked parsers"). Every read is inside the buffer:
    /// `i < count` is checked before `memchr` is given `count - i` bytes, and `ff + 1 < count` before
    /// the byte after an `FF` is read.
    func scanEntropyCodedData(from: Int, stopPast limit: Int) -> EntropyScan {
        precondition(from >= start && from < end, "scan must start inside the loaded bytes")
        return bytes.withUnsafeBufferPointer { buf -> EntropyScan in
            let base = buf.baseAddress!  // non-empty: `from` is inside it
            let count = buf.count
            let limitIndex = limit - start
            var i = from - start
            while true {
                if i > limitIndex { return .stop(start + i) }
                guard i < count, let hit = memchr(base + i, 0xFF, count - i) else { return .needMore(resumeAt: start + count) }
                let ff = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                guard ff + 1 < count else { return .needMore(resumeAt: start + ff) }
                let b = base[ff + 1]
                if b == 0x00 || (0xD0...0xD7).contains(b) {
                    i = ff + 2
                } else if b == 0xFF {
                    i = ff + 1
                } else {
                    return .stop(start + ff)
                }
            }
        }
    }

    /// The first offset in `from ..< end` holding `value`, or nil.
    func firstIndex(of value: UInt8, from: Int) -> Int? {
        let lo = from - start
        guard lo < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buf -> Int? in
            guard let base = buf.baseAddress,
                  let hit = memchr(base + lo, Int32(value), buf.count - lo) else { return nil }
            return start + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
        }
    }
}
