import Imaging

/// What a capture device or a file hands to the pipeline: one picture and when it was taken.
public struct Frame: Sendable {
    /// The picture as the source delivered it. JPEG stays compressed so the pipeline can
    /// decode straight to the size and colour it needs (gray 1/2 for tracking, RGB to composite).
    public enum Payload: Sendable {
        /// A complete JPEG (SOI ... EOI). Huffman tables may be missing (webcam MJPEG); decoders cope.
        case jpeg([UInt8])
        case rgb(RGBImage)
        case gray(GrayImage)
    }

    public var payload: Payload
    /// Seconds on the source's clock: a file's presentation time from its first frame, or a
    /// camera buffer's monotonic timestamp. Always increasing within one source.
    public var timestampSeconds: Double
    /// The source's frame counter (V4L2 `sequence`, or the index in a file). Gaps mean dropped frames.
    public var sequence: Int

    public init(payload: Payload, timestampSeconds: Double, sequence: Int) {
        self.payload = payload
        self.timestampSeconds = timestampSeconds
        self.sequence = sequence
    }
}
