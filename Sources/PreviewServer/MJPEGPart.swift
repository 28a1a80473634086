import Hummingbird

/// The `multipart/x-mixed-replace` framing of the MJPEG stream (RFC 2046 multipart syntax).
///
/// The stream opens with `--BOUNDARY\r\n`; every part is its headers (`Content-Type: image/jpeg`,
/// `Content-Length`, `X-Frame-Sequence`), a blank line, the self-contained JPEG, and the next
/// delimiter `\r\n--BOUNDARY\r\n`. Ending each part with the following delimiter (rather than
/// starting it) lets a browser show a frame as soon as its last byte arrives instead of waiting for
/// the next frame to begin.
public enum MJPEGPart {
    /// The boundary token; cannot occur in a JPEG's header lines and is long enough not to be guessed.
    public static let boundary = "lorgnette-frame-boundary"

    /// The response's Content-Type header value.
    public static func contentType(boundary: String = boundary) -> String {
        "multipart/x-mixed-replace; boundary=\(boundary)"
    }

    /// What a client receives before the first part.
    public static func preamble(boundary: String = boundary) -> ByteBuffer {
        ByteBuffer(string: "--\(boundary)\r\n")
    }

    /// One frame's part, delimiter of the next part included.
    public static func make(jpeg: [UInt8], sequence: UInt64, boundary: String = boundary) -> ByteBuffer {
        let head = "Content-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\nX-Frame-Sequence: \(sequence)\r\n\r\n"
        let tail = "\r\n--\(boundary)\r\n"
        var buffer = ByteBufferAllocator().buffer(capacity: head.utf8.count + jpeg.count + tail.utf8.count)
        buffer.writeString(head)
        buffer.writeBytes(jpeg)
        buffer.writeString(tail)
        return buffer
    }
}
