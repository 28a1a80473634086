import CV4L2

/// Finds the JPEG inside a capture buffer.
///
/// `bytesused` cannot be trusted for MJPEG: UVC cameras and v4l2loopback hand back buffers with
/// zero (or garbage) padding after the end-of-image marker, sometimes reporting the whole buffer
/// as used; a frame cut short by a USB transfer error has no end marker at all. A frame is
/// accepted when it starts with SOI (FF D8 FF) and an EOI (FF D9) follows; its length runs to the
/// last EOI. Entropy-coded data cannot contain FF D9 (FF is byte-stuffed), so the last EOI ends the
/// image even when an EXIF thumbnail carries its own.
public enum JPEGFrameBounds {
    /// The JPEG's length (through FF D9), or nil for a frame with broken framing.
    public static func length(in buffer: UnsafeRawBufferPointer) -> Int? {
        let n = buffer.count
        guard n >= 4, buffer[0] == 0xFF, buffer[1] == 0xD8, buffer[2] == 0xFF else { return nil }
        // The common case: bytesused is exact.
        if buffer[n - 2] == 0xFF && buffer[n - 1] == 0xD9 { return n }
        // memrchr skips the padding at memory speed (a zero-padded first buffer can be 1 MB).
        guard let base = buffer.baseAddress else { return nil }
        var searchEnd = n
        while searchEnd > 3, let hit = lv_memrchr(base + 3, 0xD9, searchEnd - 3) {
            let i = base.distance(to: UnsafeRawPointer(hit))
            if buffer[i - 1] == 0xFF { return i + 1 }
            searchEnd = i
        }
        return nil
    }

    public static func length(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { length(in: $0) }
    }
}
