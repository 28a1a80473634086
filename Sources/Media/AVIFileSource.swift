/// Frames from an MJPEG AVI file (RIFF `AVI `, including OpenDML AVI 2.0 files with `RIFF AVIX`
/// continuation segments), read at offsets so memory holds the frame index, not the file.
///
/// Header: size from `avih`/`strf`, rate `dwRate / dwScale` from the first video stream's
/// `strh`. Frames come from the OpenDML `indx`/`ix##` indexes when present, else from `idx1`;
/// when there is no index, or it lists fewer frames than the headers declare (a recording that
/// was killed before its index was written), the `movi` lists are scanned chunk by chunk instead.
/// A truncated file yields the frames that are complete; what is missing is reported in `issues`.
///
/// Frame `i` of the stream (counting empty "repeat" chunks) is at `i / fps` seconds.
/// Throws `MediaError` when the file is not an AVI, its headers are unreadable, or the video is
/// not MJPEG.
public final class AVIFileSource: FrameSource {
    public let path: String
    public private(set) var info = SourceInfo(codec: "MJPG")
    /// True when the file has OpenDML parts (`indx` super index or `RIFF AVIX` segments).
    public private(set) var isOpenDML = false
    /// Where the frame list came from: "indx", "idx1" or "scan".
    public private(set) var indexSource = "scan"
    /// Frame rate from the header, exactly.
    public private(set) var declaredFrameRate: FrameRate?

    public var issues: [String] { log.lines }

    private let file: RandomAccessFile
    private var log = IssueLog()
    private var frames: [FrameChunk] = []
    private var nextIndex = 0
    private var framesPerSecond = 30.0

    private struct FrameChunk {
        /// File offset of the JPEG data (after the 8-byte chunk header).
        var offset: Int
        var size: Int
        /// Position in the stream, counting empty chunks, which stand for repeated frames.
        var streamIndex: Int
    }

    /// The frames of an index or scan, and how many chunks the stream has including empty ones.
    private struct StreamChunks {
        var frames: [FrameChunk]
        var chunks: Int
    }

    private struct Header {
        var width = 0, height = 0
        var microsecondsPerFrame: UInt32 = 0
        var mainTotalFrames = 0
        var streamLength = 0
        var extendedTotalFrames = 0
        var rate: UInt32 = 0, scale: UInt32 = 0
        var handler = "", compression = ""
        var videoStream: Int?
        var superIndex: [(offset: Int, size: Int)] = []
    }

    public init(path: String, framesPerSecond: Double? = nil) throws {
        self.path = path
        file = try RandomAccessFile(path: path)
        let head = try file.read(at: 0, count: 12)
        guard head.count == 12 else {
            throw MediaError.corrupt(path: path, reason: file.size == 0 ? "empty file" : "too short for an AVI file")
        }
        guard head.fourCC(at: 0) == "RIFF", head.fourCC(at: 8) == "AVI " else {
            throw MediaError.corrupt(path: path, reason: "not a RIFF AVI file (starts with '\(head.fourCC(at: 0))')")
        }
        var riffEnd = 8 + Int(head.u32LE(at: 4))
        if head.u32LE(at: 4) == 0 {
            // Some recorders leave the size at zero until they finish; a killed one never does.
            log.add("the RIFF size is unset (recording not finished?); reading to the end of the file")
            riffEnd = file.size
        } else if riffEnd > file.size {
            log.add("file is truncated: the RIFF header declares \(riffEnd) bytes, the file has \(file.size)")
            riffEnd = file.size
        }

        var header = Header()
        var sawHeader = false
        var movi: [Range<Int>] = []
        var moviFourCCOffset: Int?
        var idx1: [UInt8]?

        // Top-level chunks of RIFF AVI.
        var p = 12
        while p + 8 <= riffEnd {
            let ch = try file.read(at: p, count: 12)
            guard ch.count >= 8 else { break }
            let id = ch.fourCC(at: 0), size = Int(ch.u32LE(at: 4))
            if id == "LIST", ch.count == 12 {
                let type = ch.fourCC(at: 8)
                let end = (type == "movi" && size == 0) ? riffEnd : min(p + 8 + size, file.size)
                if type == "hdrl" {
                    header = try Self.parseHeaderList(try file.read(at: p + 12, count: min(end - p - 12, 16 << 20)), path: path)
                    sawHeader = true
                } else if type == "movi" {
                    movi.append((p + 12)..<max(p + 12, end))  // a forged size under 4 ends before it starts
                    moviFourCCOffset = p + 8
                    if size == 0 { break }  // unset size: the frames run to the end of the segment
                }
            } else if id == "idx1" {
                idx1 = try file.read(at: p + 8, count: min(size, file.size - p - 8))
            }
            p += 8 + size + (size & 1)
        }
        guard sawHeader else { throw MediaError.corrupt(path: path, reason: "no 'hdrl' header list") }
        guard let stream = header.videoStream else { throw MediaError.unsupported(path: path, reason: "no video stream") }
        let codec = header.compression.isEmpty ? header.handler : header.compression
        guard Self.isMJPEG(header.compression) || (header.compression.isEmpty && Self.isMJPEG(header.handler)) else {
            throw MediaError.unsupported(path: path, reason: "video codec '\(codec)' is not MJPEG")
        }

        // OpenDML continuation segments: RIFF AVIX ... LIST movi.
        p = head.u32LE(at: 4) == 0 ? file.size : 8 + Int(head.u32LE(at: 4)) + Int(head.u32LE(at: 4) & 1)
        while p + 12 <= file.size {
            let ch = try file.read(at: p, count: 12)
            let size = Int(ch.u32LE(at: 4))
            guard ch.fourCC(at: 0) == "RIFF", ch.fourCC(at: 8) == "AVIX" else {
                log.add("unrecognised data after the RIFF segments at offset \(p) ('\(ch.fourCC(at: 0))'); ignored")
                break
            }
            isOpenDML = true
            let end = min(p + 8 + size, file.size)
            if p + 8 + size > file.size {
                log.add("file is truncated: RIFF AVIX segment at offset \(p) declares \(size) bytes, \(file.size - p - 8) present")
            }
            var q = p + 12
            while q + 12 <= end {
                let sub = try file.read(at: q, count: 12)
                let subSize = Int(sub.u32LE(at: 4))
                if sub.fourCC(at: 0) == "LIST", sub.fourCC(at: 8) == "movi" {
                    movi.append((q + 12)..<max(q + 12, min(q + 8 + subSize, end)))
                }
                q += 8 + subSize + (subSize & 1)
            }
            p += 8 + size + (size & 1)
        }
        if !header.superIndex.isEmpty { isOpenDML = true }

        let chunkIDs = Self.chunkIDs(stream: stream)
        let declared = max(header.streamLength, header.extendedTotalFrames, header.mainTotalFrames)
        var indexed: StreamChunks?
        if !header.superIndex.isEmpty {
            indexed = try readOpenDMLIndex(header.superIndex)
            indexSource = "indx"
        } else if let idx1, let moviFourCCOffset {
            indexed = try readLegacyIndex(idx1, chunkIDs: chunkIDs, moviFourCCOffset: moviFourCCOffset)
            indexSource = "idx1"
        }
        var chosen: StreamChunks
        if let list = indexed, list.chunks >= declared, !list.frames.isEmpty {
            chosen = list
        } else {
            let scanned = try scan(movi, chunkIDs: chunkIDs)
            if let list = indexed, list.frames.count >= scanned.frames.count {
                chosen = list
            } else {
                if let list = indexed {
                    log.add("the \(indexSource) index lists \(list.frames.count) frames, the movi data holds \(scanned.frames.count); using the data")
                }
                chosen = scanned
                indexSource = "scan"
            }
        }
        frames = chosen.frames
        if declared > 0, chosen.chunks < declared {
            log.add("headers declare \(declared) frames, \(chosen.chunks) are present")
        }

        if header.rate > 0, header.scale > 0 {
            declaredFrameRate = FrameRate(rate: header.rate, scale: header.scale)
        } else if header.microsecondsPerFrame > 0 {
            declaredFrameRate = FrameRate(framesPerSecond: 1_000_000 / Double(header.microsecondsPerFrame))
        }
        // A rate no writer can store (AVIFileSink, FrameRate: 0.001...1,000,000 fps) is the input's
        // fault: said here, naming this file, rather than by the output that would copy it.
        if let declared = declaredFrameRate, FrameRate(framesPerSecond: declared.framesPerSecond) == nil {
            log.add("the header's frame rate \(declared.rate)/\(declared.scale) (\(declared.framesPerSecond) fps) is outside 0.001...1000000 fps; assuming 30 fps")
            declaredFrameRate = nil
        }
        self.framesPerSecond = framesPerSecond ?? declaredFrameRate?.framesPerSecond ?? 30
        info = SourceInfo(
            width: header.width, height: header.height,
            framesPerSecond: self.framesPerSecond, frameCount: frames.count, codec: codec)
    }

    public func nextFrame() throws -> Frame? {
        while nextIndex < frames.count {
            let chunk = frames[nextIndex]
            nextIndex += 1
            let bytes = try file.read(at: chunk.offset, count: chunk.size)
            guard bytes.count == chunk.size else {
                log.add("frame \(chunk.streamIndex) at offset \(chunk.offset) is cut off by the end of the file; dropped")
                continue
            }
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
                log.add("frame \(chunk.streamIndex) at offset \(chunk.offset) is not a JPEG (no SOI marker); skipped")
                continue
            }
            return Frame(payload: .jpeg(bytes), timestampSeconds: Double(chunk.streamIndex) / framesPerSecond,
                         sequence: chunk.streamIndex)
        }
        return nil
    }

    public func close() {
        file.close()
    }

    // MARK: - Headers

    static func isMJPEG(_ fourCC: String) -> Bool {
        ["MJPG", "mjpg", "AVRN", "AVRn", "LJPG", "JPEG", "jpeg", "dmb1", "AVDJ"].contains(fourCC)
    }

    private static func chunkIDs(stream: Int) -> Set<String> {
        let n = stream < 10 ? "0\(stream)" : "\(stream % 100)"
        return [n + "dc", n + "db"]
    }

    private static func parseHeaderList(_ b: [UInt8], path: String) throws -> Header {
        var h = Header()
        var streamNumber = 0
        var p = 0
        while p + 8 <= b.count {
            let id = b.fourCC(at: p), size = Int(b.u32LE(at: p + 4))
            let body = p + 8
            let end = min(body + size, b.count)
            if id == "avih", end - body >= 40 {
                h.microsecondsPerFrame = b.u32LE(at: body)
                h.mainTotalFrames = Int(b.u32LE(at: body + 16))
                h.width = Int(b.u32LE(at: body + 32))
                h.height = Int(b.u32LE(at: body + 36))
            } else if id == "LIST", end - body >= 4, b.fourCC(at: body) == "strl" {
                if h.videoStream == nil, parseStreamList(Array(b[(body + 4)..<end]), into: &h) {
                    h.videoStream = streamNumber
                }
                streamNumber += 1
            } else if id == "LIST", end - body >= 4, b.fourCC(at: body) == "odml" {
                var q = body + 4
                while q + 8 <= end {
                    if b.fourCC(at: q) == "dmlh", q + 12 <= end { h.extendedTotalFrames = Int(b.u32LE(at: q + 8)) }
                    let s = Int(b.u32LE(at: q + 4))
                    q += 8 + s + (s & 1)
                }
            }
            p = body + size + (size & 1)
        }
        return h
    }

    /// Reads one `strl`; true (and fills `h`) when it describes a video stream.
    private static func parseStreamList(_ b: [UInt8], into h: inout Header) -> Bool {
        var isVideo = false
        var p = 0
        var candidate = h
        while p + 8 <= b.count {
            let id = b.fourCC(at: p), size = Int(b.u32LE(at: p + 4))
            let body = p + 8
            let end = min(body + size, b.count)
            if id == "strh", end - body >= 36 {
                isVideo = b.fourCC(at: body) == "vids"
                candidate.handler = b.fourCC(at: body + 4)
                candidate.scale = b.u32LE(at: body + 20)
                candidate.rate = b.u32LE(at: body + 24)
                candidate.streamLength = Int(b.u32LE(at: body + 32))
            } else if id == "strf", end - body >= 20 {
                let w = Int(Int32(bitPattern: b.u32LE(at: body + 4)))
                let hgt = Int(Int32(bitPattern: b.u32LE(at: body + 8)))
                if w > 0 { candidate.width = w }
                if hgt != 0 { candidate.height = abs(hgt) }
                candidate.compression = b.fourCC(at: body + 16)
            } else if id == "indx", end - body >= 24 {
                let longsPerEntry = Int(b.u16LE(at: body))
                let type = b[body + 3]
                let count = Int(b.u32LE(at: body + 4))
                if type == AVILayout.indexOfIndexes, longsPerEntry == 4 {
                    var q = body + 24
                    for _ in 0..<min(count, max(0, end - q) / 16) {
                        candidate.superIndex.append((Int(clamping: b.u64LE(at: q)), Int(b.u32LE(at: q + 8))))
                        q += 16
                    }
                }
            }
            p = body + size + (size & 1)
        }
        if isVideo { h = candidate }
        return isVideo
    }

    // MARK: - Indexes

    /// Reads the `ix##` chunks the super index points at. Real index chunks are distinct and lie
    /// side by side in the file, so together they hold at most the file's size: the bytes read are
    /// bounded by it, and an entry seen before is skipped. A forged super index of 1,000,000 entries
    /// each pointing at the whole file thus costs one read of the file, not a million (it took over a
    /// minute); the time is linear in the entries plus the file size.
    private func readOpenDMLIndex(_ superIndex: [(offset: Int, size: Int)]) throws -> StreamChunks {
        var list: [FrameChunk] = []
        var streamIndex = 0
        var seen = Set<Int>()
        var bytesLeft = file.size
        for entry in superIndex {
            guard entry.offset >= 0, entry.offset < file.size, seen.insert(entry.offset).inserted else {
                log.add("OpenDML super index entry at offset \(entry.offset) repeats an entry or lies outside the file; ignored")
                continue
            }
            let length = min(max(entry.size, 32), file.size - entry.offset)
            guard length <= bytesLeft else {
                log.add("OpenDML super index lists more index data than the file's \(file.size) bytes; its remaining entries are ignored")
                break
            }
            bytesLeft -= length
            let ix = try file.read(at: entry.offset, count: length)
            guard ix.count >= 32, ix.fourCC(at: 0).hasPrefix("ix") || ix.fourCC(at: 2) == "ix" else {
                log.add("OpenDML index chunk at offset \(entry.offset) is missing or unreadable")
                continue
            }
            let longs = Int(ix.u16LE(at: 8))
            let count = Int(ix.u32LE(at: 12))
            let base = Int(clamping: ix.u64LE(at: 20))
            guard longs == 2, ix[11] == AVILayout.indexOfChunks, base < file.size else {
                log.add("OpenDML index at offset \(entry.offset) has an unsupported layout; ignored")
                continue
            }
            var q = 32
            for _ in 0..<count {
                guard q + 8 <= ix.count else {
                    log.add("OpenDML index at offset \(entry.offset) is cut short")
                    break
                }
                let size = Int(ix.u32LE(at: q + 4) & 0x7FFF_FFFF)
                let offset = base + Int(ix.u32LE(at: q))
                q += 8
                defer { streamIndex += 1 }
                if size == 0 { continue }
                if offset + size > file.size {
                    log.add("frame \(streamIndex) at offset \(offset) lies past the end of the file; dropped")
                    continue
                }
                list.append(FrameChunk(offset: offset, size: size, streamIndex: streamIndex))
            }
        }
        return StreamChunks(frames: list, chunks: streamIndex)
    }

    private func readLegacyIndex(_ idx: [UInt8], chunkIDs: Set<String>, moviFourCCOffset: Int) throws -> StreamChunks {
        var list: [FrameChunk] = []
        var streamIndex = 0
        // Offsets are relative to the 'movi' FourCC in most files, absolute in some: test the first entry.
        var base: Int?
        var p = 0
        while p + 16 <= idx.count {
            defer { p += 16 }
            guard chunkIDs.contains(idx.fourCC(at: p)) else { continue }
            let rel = Int(idx.u32LE(at: p + 8))
            let size = Int(idx.u32LE(at: p + 12))
            if base == nil {
                let relativeHead = try file.read(at: moviFourCCOffset + rel, count: 4)
                base = (relativeHead.count == 4 && chunkIDs.contains(relativeHead.fourCC(at: 0))) ? moviFourCCOffset : 0
            }
            let chunkOffset = (base ?? 0) + rel
            defer { streamIndex += 1 }
            if size == 0 { continue }
            if chunkOffset + 8 + size > file.size {
                log.add("frame \(streamIndex) at offset \(chunkOffset) lies past the end of the file; dropped")
                continue
            }
            list.append(FrameChunk(offset: chunkOffset + 8, size: size, streamIndex: streamIndex))
        }
        return StreamChunks(frames: list, chunks: streamIndex)
    }

    /// Walks the chunks of each `movi` list (descending into `LIST rec `), keeping the video ones.
    private func scan(_ movi: [Range<Int>], chunkIDs: Set<String>) throws -> StreamChunks {
        var list: [FrameChunk] = []
        var streamIndex = 0
        for range in movi {
            var p = range.lowerBound
            while p + 8 <= range.upperBound {
                let ch = try file.read(at: p, count: 12)
                guard ch.count >= 8 else { break }
                let id = ch.fourCC(at: 0)
                let size = Int(ch.u32LE(at: 4))
                if id == "LIST" {
                    p += 12  // descend into 'rec ' lists
                    continue
                }
                guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " }) else {
                    log.add("unreadable chunk at offset \(p) in movi; the rest of this segment is skipped")
                    break
                }
                if chunkIDs.contains(id) {
                    if p + 8 + size > file.size {
                        log.add("frame \(streamIndex) at offset \(p) is cut off by the end of the file (\(file.size - p - 8) of \(size) bytes); dropped")
                        break
                    }
                    if size > 0 { list.append(FrameChunk(offset: p + 8, size: size, streamIndex: streamIndex)) }
                    streamIndex += 1
                }
                p += 8 + size + (size & 1)
            }
        }
        return StreamChunks(frames: list, chunks: streamIndex)
    }
}
