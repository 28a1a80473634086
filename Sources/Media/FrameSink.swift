/// Something that stores or sends encoded frames: an MJPEG file, an AVI file, a folder, an HTTP stream.
///
/// Contract: after every successful `write`, what is on disk is a valid, playable file up to that
/// frame (AVI sinks keep a fix-up-able header so an interrupted run still plays). `finish()` writes
/// indexes and final headers; calling it twice is harmless.
public protocol FrameSink: AnyObject {
    /// `jpeg` must be a complete JPEG with Huffman tables; `timestampSeconds` is the frame's presentation time.
    func write(jpeg: [UInt8], timestampSeconds: Double) throws
    func finish() throws
    /// Frames written so far.
    var framesWritten: Int { get }
}
