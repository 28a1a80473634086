import Imaging
import Media

/// The luma stage's decode: a frame payload to gray, a JPEG straight to gray (no colour conversion).
/// Shared by `FramePipeline` (modes that read gray only), `PhotoLandmarker` and `eval detector`.
public enum LumaDecoding {
    public static func luma(of payload: Frame.Payload, decoder: any JPEGDecoding, into gray: inout GrayImage) throws {
        switch payload {
        case .jpeg(let bytes): try decoder.decodeGray(bytes, scale: .full, into: &gray)
        case .rgb(let image): gray = GrayImage(luma: image)
        case .gray(let image): gray = image
        }
    }
}
