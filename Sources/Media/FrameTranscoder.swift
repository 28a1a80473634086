import Imaging

/// A frame as JPEG for a sink, `lorgnette convert`'s step: a JPEG is copied, or decoded and encoded
/// again when a quality is asked; raw pictures are encoded (at quality 90 unless asked).
public final class FrameTranscoder {
    public enum Output {
        /// `encoded` when the frame was a raw picture that had to be compressed.
        case jpeg([UInt8], encoded: Bool)
        /// A JPEG that would not decode for re-encoding (the caller skips it).
        case undecodable(any Error)
    }

    let decoder: any JPEGDecoding
    let encoder: any JPEGEncoding
    let quality: Int?
    private var rgb = RGBImage(width: 0, height: 0)

    public init(decoder: any JPEGDecoding, encoder: any JPEGEncoding, quality: Int?) {
        self.decoder = decoder
        self.encoder = encoder
        self.quality = quality
    }

    /// Throws only when a raw picture cannot be encoded.
    public func jpeg(for frame: Frame) throws -> Output {
        switch frame.payload {
        case .jpeg(let bytes):
            guard let quality else { return .jpeg(bytes, encoded: false) }
            do {
                try decoder.decodeRGB(bytes, scale: .full, into: &rgb)
                return .jpeg(try encoder.encode(rgb, quality: quality), encoded: false)
            } catch {
                return .undecodable(error)
            }
        case .rgb(let image):
            return .jpeg(try encoder.encode(image, quality: quality ?? 90), encoded: true)
        case .gray(let image):
            return .jpeg(try encoder.encode(image, quality: quality ?? 90), encoded: true)
        }
    }
}
