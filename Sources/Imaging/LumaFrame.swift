/// A frame as a luminance reader sees it: a gray image, or an RGB image whose luma (BT.601, the
/// weights of `GrayImage.init(luma:)`) is computed only where it is read.
///
/// The try-on composites in RGB and tracks in luma; a tracker that reads only a box-filtered crop
/// around each face can fold the colour-to-luma weighting into that filter instead of converting
/// the frame first (at 720p, with a large face, the conversion alone cost as much as the crop).
/// Cheap to pass: both cases hold the image's storage by reference.
public enum LumaFrame: Sendable {
    case gray(GrayImage)
    case rgb(RGBImage)

    public var width: Int {
        switch self {
        case .gray(let g): g.width
        case .rgb(let c): c.width
        }
    }

    public var height: Int {
        switch self {
        case .gray(let g): g.height
        case .rgb(let c): c.height
        }
    }

    /// The frame as a gray image: the image itself, or the luma of the RGB image (a new image).
    public var grayImage: GrayImage {
        switch self {
        case .gray(let g): g
        case .rgb(let c): GrayImage(luma: c)
        }
    }
}
