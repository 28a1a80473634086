import Imaging
import Media

/// The JPEG codec floor of a frame: what a frame costs with no processing at all. Decoding to RGB and
/// encoding at the pipeline's quality, with buffers reused, as the try-on path does them; decoding to
/// gray, as the tracking path does. `bench` times these steps on the same frames as the pipeline's own
/// paths, so its ratios say what tracking and rendering add to the codec.
public final class CodecFloor {
    let decoder: any JPEGDecoding
    let encoder: any JPEGEncoding
    let quality: Int
    private var canvas = RGBImage(width: 1, height: 1)
    private var encoded: [UInt8] = []
    private var gray = GrayImage(width: 1, height: 1)

    public init(decoder: any JPEGDecoding, encoder: any JPEGEncoding, quality: Int) {
        self.decoder = decoder
        self.encoder = encoder
        self.quality = quality
    }

    /// Decodes `jpeg` into the reused RGB canvas.
    public func decodeRGB(_ jpeg: [UInt8]) throws {
        try decoder.decodeRGB(jpeg, scale: .full, into: &canvas)
    }

    /// Encodes the last decoded canvas into the reused byte buffer.
    public func encodeCanvas() throws {
        try encoder.encode(canvas, quality: quality, into: &encoded)
    }

    /// Decodes `jpeg` into the reused gray image.
    public func decodeGray(_ jpeg: [UInt8]) throws {
        try decoder.decodeGray(jpeg, scale: .full, into: &gray)
    }
}
