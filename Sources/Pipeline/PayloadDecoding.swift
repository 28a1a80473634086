import Imaging
import Media

/// The decode stage for one frame payload, the one place a compressed frame becomes pixels outside
/// `FramePipeline`'s own canvas: gray (a JPEG straight to gray, no colour conversion) for
/// `FramePipeline`'s gray-only modes, `PhotoLandmarker` and `eval detector`; colour for the
/// evaluation and training harnesses that draw on photos (`eval card`, `train eyeglasses`) and for the
/// card scale's search in the `metrics` mode.
public enum PayloadDecoding {
    public static func luma(of payload: Frame.Payload, decoder: any JPEGDecoding, into gray: inout GrayImage) throws {
        switch payload {
        case .jpeg(let bytes): try decoder.decodeGray(bytes, scale: .full, into: &gray)
        case .rgb(let image): gray = GrayImage(luma: image)
        case .gray(let image): gray = image
        }
    }

    /// The colour form into a buffer the caller keeps (the card scale's colour, one per frame).
    public static func colour(of payload: Frame.Payload, decoder: any JPEGDecoding, into image: inout RGBImage) throws {
        switch payload {
        case .jpeg(let bytes): try decoder.decodeRGB(bytes, scale: .full, into: &image)
        case .rgb(let rgb): image = rgb
        case .gray(let gray): image = RGBImage(gray: gray)
        }
    }

    public static func colour(of payload: Frame.Payload, decoder: any JPEGDecoding) throws -> RGBImage {
        switch payload {
        case .jpeg(let bytes): return try decoder.decodeRGB(bytes, scale: .full)
        case .rgb(let image): return image
        case .gray(let image): return RGBImage(gray: image)
        }
    }
}
