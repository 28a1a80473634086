/// The one cap on decoded image size, for photos, video frames and model textures alike: a
/// decoder checks the header's width and height against it before it allocates a pixel, so a
/// forged header (a 16 KB JPEG declaring 30000x30000) is refused in microseconds instead of
/// asking for gigabytes.
///
/// 100 Mpixel: seven 14-megapixel photos, and 25 times a 4K frame; an RGBA texture at the cap is
/// 400 MB, which still fits the 2 GB the engine allows itself for any input under 20 MB.
public enum ImageSizeLimit {
    public static let maximumPixels = 100_000_000

    /// Nil when a `width` x `height` image may be decoded, else the one-line reason (it names the
    /// size and the limit). Computed without overflow: any Int sizes are safe to pass.
    public static func violation(width: Int, height: Int) -> String? {
        let area = width.multipliedReportingOverflow(by: height)
        guard width < 0 || height < 0 || area.overflow || area.partialValue > maximumPixels else { return nil }
        return "image \(width)x\(height) is larger than the \(maximumPixels / 1_000_000) Mpixel limit"
    }
}
