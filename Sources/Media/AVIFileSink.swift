/// Writes JPEG frames as an MJPEG AVI: RIFF `AVI ` with one video stream (`vids`/`MJPG`,
/// BITMAPINFOHEADER with compression `MJPG`), frames as `00dc` chunks in `movi`, and an `idx1`
/// index, so any player (ffmpeg, VLC, browsers' tools) opens it.
///
/// Large files follow OpenDML AVI 2.0: each RIFF segment is kept under `segmentLimitBytes`
/// (1 GB by default, the limit of 32-bit AVI readers); later segments are `RIFF AVIX`, each
/// `movi` ends with an `ix00` standard index and the header's `indx` super index points at
/// them, with `dmlh` holding the total frame count. `idx1` covers the first segment only, as
/// the OpenDML spec prescribes. At most 256 segments (about 256 GB) are written; past that,
/// `write` throws `MediaError.limitExceeded`.
///
/// Crash safety: every `write` hands the frame to the kernel and patches the RIFF and `movi`
/// sizes and the frame counts in place, so a file whose writer was killed plays up to the last
/// completed frame (readers scan `movi` when the index is missing). `finish()` writes the
/// indexes.
///
/// Timing: AVI has a constant rate, `framesPerSecond`, stored exactly as `dwRate/dwScale` (see
/// `FrameRate`). With `.constantRate` (default) each frame takes the next slot and
/// `timestampSeconds` is ignored. With `.followTimestamps` a frame goes in slot
/// `round((t - t0) * fps)`, and slots skipped over (a camera that slowed down or dropped
/// frames) are filled with empty `00dc` chunks, which players (and `AVIFileSource`) treat as
/// "repeat the previous frame", so playback keeps real time; a frame early for its slot takes
/// the next free one, and gaps are capped at 10 s.
/// All frames must have the size of the first one. Not thread-safe.
public final class AVIFileSink: FrameSink {
    /// OpenDML's customary segment size: below 1 GiB so 32-bit offsets and old readers are safe.
    public static let defaultSegmentLimitBytes = 1_000_000_000

    public let path: String
    public let frameRate: FrameRate
    public let segmentLimitBytes: Int
    public let timing: Timing
    /// Frames stored (non-empty chunks).
    public private(set) var framesWritten = 0
    /// Slots in the stream: frames plus empty repeat chunks (`strh.dwLength`).
    public private(set) var streamLength = 0

    /// How frames map to the constant-rate AVI timeline.
    public enum Timing: Sendable {
        /// One frame per slot, timestamps ignored.
        case constantRate
        /// Slots follow the frames' timestamps; skipped slots become empty repeat chunks.
        case followTimestamps
    }
    /// Frame size taken from the first frame's JPEG header; nil before the first write.
    public private(set) var width: Int?
    public private(set) var height: Int?

    private let file: OutputFile
    private var layout: HeaderOffsets?
    private var segments: [Segment] = []
    private var maxChunkBytes = 0
    private var finished = false
    private var firstTimestamp: Double?

    private struct HeaderOffsets {
        var avih = 0
        var strh = 0
        var indx = 0
        var dmlh = 0
    }

    private struct Segment {
        var riffOffset: Int
        var moviOffset: Int
        /// File offset of each frame's chunk header and its data size.
        var chunks: [(offset: Int, size: Int)] = []
    }

    /// Creates (truncates) `path`. Headers are written with the first frame, whose size they record.
    public init(path: String, framesPerSecond: Double, timing: Timing = .constantRate,
                segmentLimitBytes: Int = AVIFileSink.defaultSegmentLimitBytes) throws {
        guard let rate = FrameRate(framesPerSecond: framesPerSecond) else {
            throw MediaError.unsupported(path: path, reason: "frame rate \(framesPerSecond) is not in 0.001...1000000")
        }
        precondition(segmentLimitBytes >= 64 << 10 && segmentLimitBytes <= 0xFFFF_0000,
                     "segment limit must be between 64 KiB and 4 GiB (RIFF sizes are 32-bit)")
        self.path = path
        self.frameRate = rate
        self.segmentLimitBytes = segmentLimitBytes
        self.timing = timing
        file = try OutputFile(path: path)
    }

    deinit { try? finish() }

    public func write(jpeg: [UInt8], timestampSeconds: Double) throws {
        guard !finished else { throw MediaError.io(path: path, reason: "write after finish") }
        let frame = JPEGHuffmanTables.insertingStandardTablesIfMissing(jpeg)
        guard let header = JPEGFrameHeader(frame) else {
            throw MediaError.invalidFrame(path: path, reason: "frame \(framesWritten) is not a JPEG with a frame header")
        }
        if layout == nil {
            width = header.width
            height = header.height
            try writeHeaders(width: header.width, height: header.height)
        } else if header.width != width || header.height != height {
            throw MediaError.invalidFrame(
                path: path,
                reason: "frame \(framesWritten) is \(header.width)x\(header.height), the stream is \(width ?? 0)x\(height ?? 0) (all frames of an AVI must have one size)")
        }
        let repeats = repeatSlots(before: timestampSeconds)
        let chunkBytes = 8 * repeats + 8 + frame.count + (frame.count & 1)
        guard frame.count < Int(UInt32.max >> 1) else {
            throw MediaError.limitExceeded(path: path, reason: "frame of \(frame.count) bytes is too large for AVI")
        }
        if needsNewSegment(adding: chunkBytes, chunks: repeats + 1) {
            try closeSegment()
            guard segments.count < AVILayout.superIndexEntries else {
                throw MediaError.limitExceeded(
                    path: path,
                    reason: "AVI limit reached: \(AVILayout.superIndexEntries) OpenDML segments of \(segmentLimitBytes) bytes")
            }
            try openSegment(extended: true)
        }

        var offset = file.size
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkBytes)
        for _ in 0..<repeats {
            chunk.appendFourCC("00dc")
            chunk.appendU32LE(0)
            segments[segments.count - 1].chunks.append((offset, 0))
            offset += 8
        }
        chunk.appendFourCC("00dc")
        chunk.appendU32LE(UInt32(frame.count))
        chunk.append(contentsOf: frame)
        if frame.count & 1 == 1 { chunk.append(0) }
        file.append(chunk)
        try file.flush()
        segments[segments.count - 1].chunks.append((offset, frame.count))
        framesWritten += 1
        streamLength += repeats + 1
        try patchSizesAndCounts(grownChunk: frame.count)
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        if layout == nil { try writeHeaders(width: 0, height: 0) }
        try closeSegment()
        guard let layout else { return }
        try file.patch(bytesU32LE(AVILayout.flagHasIndex | AVILayout.flagIsInterleaved | AVILayout.flagTrustChunkType), at: layout.avih + 12)
        try file.close()
    }

    // MARK: - Layout

    private func writeHeaders(width: Int, height: Int) throws {
        var h: [UInt8] = []
        var offsets = HeaderOffsets()
        h.appendFourCC("RIFF"); h.appendU32LE(0); h.appendFourCC("AVI ")
        let hdrl = h.count
        h.appendFourCC("LIST"); h.appendU32LE(0); h.appendFourCC("hdrl")

        h.appendFourCC("avih"); h.appendU32LE(UInt32(AVILayout.mainHeaderSize))
        offsets.avih = h.count
        h.appendU32LE(frameRate.microsecondsPerFrame)
        h.appendU32LE(0)                               // dwMaxBytesPerSec
        h.appendU32LE(0)                               // dwPaddingGranularity
        h.appendU32LE(AVILayout.flagIsInterleaved)     // dwFlags; HASINDEX once idx1 exists
        h.appendU32LE(0)                               // dwTotalFrames (first RIFF segment)
        h.appendU32LE(0)                               // dwInitialFrames
        h.appendU32LE(1)                               // dwStreams
        h.appendU32LE(0)                               // dwSuggestedBufferSize
        h.appendU32LE(UInt32(width)); h.appendU32LE(UInt32(height))
        h.append(contentsOf: repeatElement(0, count: 16))

        let strl = h.count
        h.appendFourCC("LIST"); h.appendU32LE(0); h.appendFourCC("strl")
        h.appendFourCC("strh"); h.appendU32LE(UInt32(AVILayout.streamHeaderSize))
        offsets.strh = h.count
        h.appendFourCC("vids"); h.appendFourCC("MJPG")
        h.appendU32LE(0)                               // dwFlags
        h.appendU16LE(0); h.appendU16LE(0)             // wPriority, wLanguage
        h.appendU32LE(0)                               // dwInitialFrames
        h.appendU32LE(frameRate.scale); h.appendU32LE(frameRate.rate)
        h.appendU32LE(0)                               // dwStart
        h.appendU32LE(0)                               // dwLength (all frames)
        h.appendU32LE(0)                               // dwSuggestedBufferSize
        h.appendU32LE(UInt32.max)                      // dwQuality: default
        h.appendU32LE(0)                               // dwSampleSize: variable-size frames
        h.appendU16LE(0); h.appendU16LE(0); h.appendU16LE(UInt16(clamping: width)); h.appendU16LE(UInt16(clamping: height))

        h.appendFourCC("strf"); h.appendU32LE(UInt32(AVILayout.bitmapInfoHeaderSize))
        h.appendU32LE(UInt32(AVILayout.bitmapInfoHeaderSize))
        h.appendU32LE(UInt32(width)); h.appendU32LE(UInt32(height))
        h.appendU16LE(1); h.appendU16LE(24)            // biPlanes, biBitCount
        h.appendFourCC("MJPG")
        h.appendU32LE(UInt32(truncatingIfNeeded: width * height * 3))
        h.append(contentsOf: repeatElement(0, count: 16))

        // OpenDML super index, filled as segments close.
        let indxSize = 24 + 16 * AVILayout.superIndexEntries
        h.appendFourCC("indx"); h.appendU32LE(UInt32(indxSize))
        offsets.indx = h.count
        h.appendU16LE(4)                               // wLongsPerEntry
        h.append(0); h.append(AVILayout.indexOfIndexes)
        h.appendU32LE(0)                               // nEntriesInUse
        h.appendFourCC("00dc")
        h.append(contentsOf: repeatElement(0, count: 12 + 16 * AVILayout.superIndexEntries))
        h.setU32LE(UInt32(h.count - strl - 8), at: strl + 4)

        let odml = h.count
        h.appendFourCC("LIST"); h.appendU32LE(0); h.appendFourCC("odml")
        h.appendFourCC("dmlh"); h.appendU32LE(UInt32(AVILayout.extendedHeaderSize))
        offsets.dmlh = h.count
        h.append(contentsOf: repeatElement(0, count: AVILayout.extendedHeaderSize))
        h.setU32LE(UInt32(h.count - odml - 8), at: odml + 4)
        h.setU32LE(UInt32(h.count - hdrl - 8), at: hdrl + 4)

        file.append(h)
        layout = offsets
        segments = [Segment(riffOffset: 0, moviOffset: file.size)]
        var movi: [UInt8] = []
        movi.appendFourCC("LIST"); movi.appendU32LE(4); movi.appendFourCC("movi")
        file.append(movi)
        try file.flush()
        try file.patch(bytesU32LE(UInt32(file.size - 8)), at: 4)
    }

    private func openSegment(extended: Bool) throws {
        let riff = file.size
        var b: [UInt8] = []
        b.appendFourCC("RIFF"); b.appendU32LE(4 + 12); b.appendFourCC("AVIX")
        b.appendFourCC("LIST"); b.appendU32LE(4); b.appendFourCC("movi")
        file.append(b)
        try file.flush()
        segments.append(Segment(riffOffset: riff, moviOffset: riff + 12))
    }

    /// Empty slots to insert before a frame at `timestamp` so it plays at its time.
    private func repeatSlots(before timestamp: Double) -> Int {
        guard timing == .followTimestamps, timestamp.isFinite else { return 0 }
        guard let t0 = firstTimestamp else {
            firstTimestamp = timestamp
            return 0
        }
        let slot = ((timestamp - t0) * frameRate.framesPerSecond).rounded()
        guard slot > Double(streamLength) else { return 0 }
        let maxGap = max(1, Int(10 * frameRate.framesPerSecond))
        return min(Int(min(slot, 1e12)) - streamLength, maxGap)
    }

    private func needsNewSegment(adding chunkBytes: Int, chunks: Int) -> Bool {
        guard let segment = segments.last, !segment.chunks.isEmpty else { return false }
        let n = segment.chunks.count + chunks
        let indexes = (24 + 8 + 8 * n) + (segments.count == 1 ? 8 + 16 * n : 0)
        return file.size + chunkBytes + indexes - segment.riffOffset > segmentLimitBytes
    }

    /// Keeps the on-disk headers describing everything written so far.
    private func patchSizesAndCounts(grownChunk: Int) throws {
        guard let layout, let segment = segments.last else { return }
        try file.patch(bytesU32LE(UInt32(file.size - segment.riffOffset - 8)), at: segment.riffOffset + 4)
        try file.patch(bytesU32LE(UInt32(file.size - segment.moviOffset - 8)), at: segment.moviOffset + 4)
        let total = bytesU32LE(UInt32(streamLength))
        if segments.count == 1 { try file.patch(total, at: layout.avih + 16) }
        try file.patch(total, at: layout.strh + 32)
        try file.patch(total, at: layout.dmlh)
        if grownChunk > maxChunkBytes {
            maxChunkBytes = grownChunk
            let size = bytesU32LE(UInt32(grownChunk + 8))
            try file.patch(size, at: layout.avih + 28)
            try file.patch(size, at: layout.strh + 36)
        }
    }

    /// Ends the current segment: `ix00` at the end of its `movi`, `idx1` after the first one,
    /// final sizes, and its entry in the super index.
    private func closeSegment() throws {
        guard let layout, let segment = segments.last else { return }
        let n = segment.chunks.count
        if n > 0 {
            let ixOffset = file.size
            let base = segment.moviOffset
            var ix: [UInt8] = []
            ix.reserveCapacity(32 + 8 * n)
            ix.appendFourCC("ix00"); ix.appendU32LE(UInt32(24 + 8 * n))
            ix.appendU16LE(2); ix.append(0); ix.append(AVILayout.indexOfChunks)
            ix.appendU32LE(UInt32(n))
            ix.appendFourCC("00dc")
            ix.appendU64LE(UInt64(base))
            ix.appendU32LE(0)
            for c in segment.chunks {
                ix.appendU32LE(UInt32(c.offset + 8 - base))
                // Bit 31 clear: key frame. Empty repeat chunks are marked as non-key.
                ix.appendU32LE(c.size > 0 ? UInt32(c.size) : 0x8000_0000)
            }
            file.append(ix)
            try file.flush()
            try file.patch(bytesU32LE(UInt32(file.size - segment.moviOffset - 8)), at: segment.moviOffset + 4)

            let entry = segments.count - 1
            var e: [UInt8] = []
            e.appendU64LE(UInt64(ixOffset)); e.appendU32LE(UInt32(ix.count)); e.appendU32LE(UInt32(n))
            try file.patch(e, at: layout.indx + 24 + 16 * entry)
            try file.patch(bytesU32LE(UInt32(entry + 1)), at: layout.indx + 4)
        }
        if segments.count == 1 {
            // Legacy index of the first segment; offsets relative to the `movi` FourCC.
            let moviFourCC = segment.moviOffset + 8
            var idx: [UInt8] = []
            idx.reserveCapacity(8 + 16 * n)
            idx.appendFourCC("idx1"); idx.appendU32LE(UInt32(16 * n))
            for c in segment.chunks {
                idx.appendFourCC("00dc"); idx.appendU32LE(c.size > 0 ? AVILayout.indexKeyFrame : 0)
                idx.appendU32LE(UInt32(c.offset - moviFourCC)); idx.appendU32LE(UInt32(c.size))
            }
            file.append(idx)
            try file.flush()
        }
        try file.patch(bytesU32LE(UInt32(file.size - segment.riffOffset - 8)), at: segment.riffOffset + 4)
    }
}
