/// Writes frames as a raw MJPEG stream: each complete JPEG appended as is, nothing between
/// them. Frames lacking Huffman tables (webcam MJPEG) get the standard ones, so every frame
/// decodes on its own. Timestamps are not stored (the format has none).
///
/// After every `write` the file is a valid stream of the frames so far. Not thread-safe.
public final class MJPEGFileSink: FrameSink {
    public let path: String
    public private(set) var framesWritten = 0
    private let file: OutputFile
    private var finished = false

    /// Creates (truncates) `path`.
    public init(path: String) throws {
        self.path = path
        file = try OutputFile(path: path)
    }

    /// Writes the stream to standard output (`-o -`), for ffmpeg's `-f mjpeg -i -` or GStreamer's
    /// `fdsrc ! jpegparse`. A reader that closes the pipe makes `write` throw `MediaError.readerClosed`.
    public init(standardOutput: Void) throws {
        path = "standard output"
        file = try OutputFile(duplicating: 1, name: path)
    }

    deinit { try? finish() }

    public func write(jpeg: [UInt8], timestampSeconds: Double) throws {
        guard !finished else { throw MediaError.io(path: path, reason: "write after finish") }
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw MediaError.invalidFrame(path: path, reason: "frame \(framesWritten) does not start with a JPEG SOI marker")
        }
        file.append(JPEGHuffmanTables.insertingStandardTablesIfMissing(jpeg))
        try file.flush()
        framesWritten += 1
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        try file.close()
    }
}
