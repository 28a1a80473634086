/// The two image kinds of the engine, gray and RGB: rows of interleaved 8-bit channels with no
/// padding, so one view type, one crop and one resampler serve both.
public protocol PackedImage: Sendable {
    /// Bytes per pixel: 1 for gray, 3 for RGB.
    static var channels: Int { get }
    var width: Int { get }
    var height: Int { get }
    var pixels: [UInt8] { get set }
    /// A black image of that size.
    init(width: Int, height: Int)
    /// Re-shapes to `width x height`, reusing the storage when it is large enough; contents unspecified afterwards.
    mutating func reshape(width: Int, height: Int)
}

extension GrayImage: PackedImage {
    public static var channels: Int { 1 }
    public init(width: Int, height: Int) { self.init(width: width, height: height, fill: 0) }
}

extension RGBImage: PackedImage {
    public static var channels: Int { 3 }
    public init(width: Int, height: Int) { self.init(width: width, height: height, fill: (0, 0, 0)) }
}

extension PackedImage {
    /// A read-only view of `rect` (clamped to the image), sharing this image's storage.
    public func view(_ rect: PixelRect) -> ImageView<Self> { ImageView(self, rect: rect) }

    /// A view of the whole image.
    public var fullView: ImageView<Self> { ImageView(self) }

    /// A copy of the pixels inside `rect` (clamped to the image; may be empty).
    public func cropped(to rect: PixelRect) -> Self { view(rect).copy() }

    /// The whole image as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
}
