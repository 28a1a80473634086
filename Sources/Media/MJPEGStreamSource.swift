/// Frames from a raw MJPEG file: complete JPEGs one after another, with no container, no
/// timestamps and no audio (what `ffmpeg -f mjpeg` writes and many cameras stream).
///
/// Reads the file front to back through a window of about one frame, so memory does not grow
/// with file size. Frames are split by `JPEGStreamSplitter` (marker-structure aware); junk,
/// corrupt and truncated frames are reported in `issues`, never delivered.
///
/// Timing: with `framesPerSecond` given, frame `i` is at `i / fps` seconds. Otherwise, when a
/// `videos.json` sidecar lists the file, its `frame_times_s` are used (variable frame rate kept)
/// and its `fps` is the nominal rate; otherwise 30 fps.
public final class MJPEGStreamSource: FrameSource {
    public static let defaultFramesPerSecond = 30.0

    public let path: String
    public private(set) var info: SourceInfo
    private let window: StreamWindow
    private let splitter: JPEGStreamSplitter
    private let frameTimes: [Double]?
    private let framesPerSecond: Double
    private var pending: [UInt8]?
    private var delivered = 0

    public var issues: [String] {
        var lines = splitter.issues.lines
        if splitter.finished && splitter.framesFound == 0 { lines.append("no JPEG frames found") }
        return lines
    }

    public convenience init(path: String, framesPerSecond: Double? = nil, useSidecar: Bool = true) throws {
        try self.init(window: StreamWindow(path: path), framesPerSecond: framesPerSecond, useSidecar: useSidecar)
    }

    /// The stream on standard input (`--input -`): frames as they arrive through the pipe, timed at
    /// `framesPerSecond` (default 30: a pipe carries no timestamps).
    public convenience init(standardInput: Void, framesPerSecond: Double? = nil) throws {
        try self.init(window: StreamWindow(duplicating: 0, name: "standard input", chunkSize: 1 << 16),
                      framesPerSecond: framesPerSecond, useSidecar: false)
    }

    private init(window: StreamWindow, framesPerSecond: Double?, useSidecar: Bool) throws {
        path = window.path
        self.window = window
        splitter = JPEGStreamSplitter(window: window)
        let sidecar = (useSidecar && framesPerSecond == nil) ? FrameTimeSidecar.lookUp(videoPath: path) : nil
        frameTimes = sidecar?.frameTimesSeconds
        self.framesPerSecond = framesPerSecond ?? sidecar?.framesPerSecond ?? Self.defaultFramesPerSecond
        info = SourceInfo(framesPerSecond: self.framesPerSecond, frameCount: sidecar?.frameCount, codec: "MJPG")
        // Read the first frame now so the size is known before the caller asks for frames.
        pending = try splitter.next()?.bytes
        if let first = pending, let header = JPEGFrameHeader(first) {
            info.width = header.width
            info.height = header.height
        }
    }

    public func nextFrame() throws -> Frame? {
        let bytes: [UInt8]
        if let p = pending {
            bytes = p
            pending = nil
        } else {
            guard let next = try splitter.next() else { return nil }
            bytes = next.bytes
        }
        let index = delivered
        delivered += 1
        return Frame(payload: .jpeg(bytes), timestampSeconds: timestamp(of: index), sequence: index)
    }

    public func close() {
        window.close()
    }

    private func timestamp(of index: Int) -> Double {
        if let times = frameTimes, !times.isEmpty {
            if index < times.count { return times[index] }
            // Past the sidecar's list: continue at the nominal rate.
            return times[times.count - 1] + Double(index - times.count + 1) / framesPerSecond
        }
        return Double(index) / framesPerSecond
    }
}
