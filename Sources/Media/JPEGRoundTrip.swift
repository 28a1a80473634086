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

    /// A picture of any payload in colour (a JPEG decoded at full size).
    public func colour(_ payload: Frame.Payload) throws -> RGBImage {
        switch payload {
        case .jpeg(let bytes): return try decoder.decodeRGB(bytes, scale: .full)
        case .rgb(let image): return image
        case .gray(let image): return RGBImage(gray: image)
        }
    }
}
