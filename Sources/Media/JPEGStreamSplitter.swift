/// Cuts a byte stream of concatenated JPEGs (raw MJPEG) into whole frames by walking the
/// marker structure of ISO 10918-1 rather than searching for `FF D9`:
/// - marker segments are skipped by their length, so an EXIF thumbnail in APP1 (which holds its
///   own `FF D8 ... FF D9`) does not end the frame;
/// - in entropy-coded data `FF 00` is a stuffed byte and `FF D0`...`FF D7` are restart markers,
///   so only another marker ends the scan;
/// - bytes before a frame's `FF D8 FF` are junk: skipped and reported;
/// - a frame cut off by the end of the stream is reported and not delivered;
/// - a frame whose structure breaks (a non-marker where a marker must be, a new SOI before EOI)
///   is reported and skipped, and the search resumes at the next SOI.
final class JPEGStreamSplitter {
    /// Largest frame accepted; past this the frame is declared corrupt so junk cannot fill memory.
    static let maxFrameBytes = 64 << 20

    private let window: StreamWindow
    private var position = 0
    private(set) var issues = IssueLog()
    private(set) var framesFound = 0
    private(set) var finished = false

    init(window: StreamWindow) {
        self.window = window
    }

    /// The next complete JPEG and its file offset, or nil at the end of the stream.
    func next() throws -> (bytes: [UInt8], offset: Int)? {
        while !finished {
            guard let soi = try findSOI(from: position) else {
                finished = true
                if window.end > position {
                    issues.add("\(window.end - position) bytes of junk at the end (offset \(position)), no JPEG start marker")
                }
                window.discard(before: window.end)
                return nil
            }
            if soi > position {
                issues.add("skipped \(soi - position) bytes of junk before frame \(framesFound) (offset \(position))")
            }
            switch try walkFrame(from: soi) {
            case .complete(let end):
                let bytes = window.copy(soi..<end)
                // Bytes before `end` are dropped lazily, when the window next reads (one move per read chunk).
                position = end
                framesFound += 1
                return (bytes, soi)
            case .truncated:
                issues.add("frame \(framesFound) at offset \(soi) is truncated (\(window.end - soi) bytes, stream ends before its end marker); dropped")
                finished = true
                position = window.end
                window.discard(before: window.end)
                return nil
            case .broken(let at, let reason):
                issues.add("frame \(framesFound) at offset \(soi) is corrupt (\(reason) at offset \(at)); skipped")
                position = max(at, soi + 2)
            }
        }
        return nil
    }

    private enum Walk {
        case complete(end: Int)
        case truncated
        case broken(at: Int, reason: String)
    }

    /// The offset of the next `FF D8 FF` at or after `from`, reading on as needed.
    private func findSOI(from: Int) throws -> Int? {
        var p = from
        while true {
            guard try window.ensure(p, keepFrom: p) else { return nil }
            guard let ff = window.firstIndex(of: 0xFF, from: p) else {
                p = window.end
                continue
            }
            guard try window.ensure(ff + 2, keepFrom: ff) else { return nil }
            if window[ff + 1] == 0xD8 && window[ff + 2] == 0xFF { return ff }
            p = ff + 1
        }
    }

    private func walkFrame(from soi: Int) throws -> Walk {
        var p = soi + 2
        while true {
            if p - soi > Self.maxFrameBytes { return .broken(at: p, reason: "no end marker within \(Self.maxFrameBytes >> 20) MB") }
            guard try window.ensure(p + 1, keepFrom: soi) else { return .truncated }
            guard window[p] == 0xFF else {
                return .broken(at: p, reason: String(format2x: window[p], prefix: "expected a marker, found byte "))
            }
            let marker = window[p + 1]
            switch marker {
            case 0xFF:
                p += 1  // fill byte before a marker
            case 0xD9:
                return .complete(end: p + 2)
            case 0xD8:
                return .broken(at: p, reason: "new start-of-image before end-of-image")
            case 0x01, 0xD0...0xD7:
                p += 2
            case 0x00:
                return .broken(at: p, reason: "stuffed zero outside entropy-coded data")
            default:
                guard try window.ensure(p + 3, keepFrom: soi) else { return .truncated }
                let length = Int(window[p + 2]) << 8 | Int(window[p + 3])
                guard length >= 2 else { return .broken(at: p, reason: "segment length \(length)") }
                p += 2 + length
                if marker == 0xDA {
                    guard let next = try skipEntropyCodedData(from: p, soi: soi) else { return .truncated }
                    p = next
                }
            }
        }
    }

    /// The offset of the first real marker after a scan header: skips `FF 00`, `FF D0-D7` and fill bytes.
    /// The bytes are walked by `StreamWindow.scanEntropyCodedData`, one loaded block at a time.
    private func skipEntropyCodedData(from start: Int, soi: Int) throws -> Int? {
        var p = start
        while true {
            if p - soi > Self.maxFrameBytes { return p }
            // Two bytes from `p`: an FF and the byte that says what it is.
            guard try window.ensure(p + 1, keepFrom: soi) else { return nil }
            switch window.scanEntropyCodedData(from: p, stopPast: soi + Self.maxFrameBytes) {
            case .stop(let at): return at
            case .needMore(let resumeAt): p = resumeAt
            }
        }
    }
}

extension String {
    init(format2x byte: UInt8, prefix: String) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = prefix + (hex.count == 1 ? "0" + hex : hex)
    }
}
