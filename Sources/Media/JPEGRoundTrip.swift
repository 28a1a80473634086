import Imaging

/// A picture compressed and decoded again, as a webcam's JPEG would deliver it: the evaluations'
/// compression noise (`eval coverage`, `eval card`).
public final class JPEGRoundTrip {
    let encoder: any JPEGEncoding
    let decoder: any JPEGDecoding

    public init(encoder: any JPEGEncoding, decoder: any JPEGDecoding) {
        self.encoder = encoder
        self.decoder = decoder
    }

    /// The compressed bytes at `quality` (empty if the encoder refuses).
    public func compress(_ image: RGBImage, quality: Int) -> [UInt8] {
        (try? encoder.encode(image, quality: quality)) ?? []
    }

    /// `image` after compression at `quality`, in colour; the picture itself if either step fails.
    public func degrade(_ image: RGBImage, quality: Int) -> RGBImage {
        (try? decoder.decodeRGB(compress(image, quality: quality), scale: .full)) ?? image
    }

    /// The luma of compressed bytes (nil when they do not decode).
    public func luma(_ jpeg: [UInt8]) -> GrayImage? {
        try? decoder.decodeGray(jpeg)
    }
}
