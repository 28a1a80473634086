/// What a source knows about its stream before (or while) it delivers frames.
public struct SourceInfo: Sendable, Equatable {
    public var width: Int?
    public var height: Int?
    /// Nominal frames per second, when the container or device declares one.
    public var framesPerSecond: Double?
    /// Total frames, when known in advance (files); nil for live sources.
    public var frameCount: Int?
    /// Human-readable codec or pixel format, e.g. "MJPG", "YUYV".
    public var codec: String

    public init(width: Int? = nil, height: Int? = nil, framesPerSecond: Double? = nil, frameCount: Int? = nil, codec: String) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.frameCount = frameCount
        self.codec = codec
    }
}

/// Something that produces frames one at a time: a camera, a video file, a folder of images.
///
/// Contract: `nextFrame()` blocks until a frame is available and returns nil at the end of a
/// finite stream. Errors are terminal for live sources unless the caller re-opens them; file
/// sources report recoverable defects (junk, a truncated last frame) through `issues`, not by throwing.
public protocol FrameSource: AnyObject {
    var info: SourceInfo { get }
    func nextFrame() throws -> Frame?
    /// Problems found so far that did not stop reading (skipped junk, truncated last frame, ...).
    var issues: [String] { get }
    func close()
}

extension FrameSource {
    public var issues: [String] { [] }
    public func close() {}
}
