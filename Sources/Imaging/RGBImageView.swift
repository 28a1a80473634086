/// A read-only window onto a rectangular region of an `RGBImage`, without copying pixels.
///
/// Same contract as `GrayImageView`: the region is clamped to the base image at creation, view
/// pixel (0, 0) is base pixel (`rect.x`, `rect.y`), and the pixel-centre convention carries over.
public struct RGBImageView: Sendable {
    public let base: RGBImage
    /// The region in base-image pixels, already clamped to the base image.
    public let rect: PixelRect

    public init(_ base: RGBImage, rect: PixelRect) {
        self.base = base
        self.rect = rect.clamped(toWidth: base.width, height: base.height)
    }

    public init(_ base: RGBImage) {
        self.init(base, rect: PixelRect(x: 0, y: 0, width: base.width, height: base.height))
    }

    @inlinable public var width: Int { rect.width }
    @inlinable public var height: Int { rect.height }
    /// Distance in bytes between vertically adjacent pixels in `base.pixels`.
    @inlinable public var rowStride: Int { 3 * base.width }
    /// Index in `base.pixels` of the red byte of the view's top-left pixel.
    @inlinable public var startIndex: Int { 3 * (rect.y * base.width + rect.x) }

    /// The pixel at view coordinates (x, y); both must lie inside the view.
    @inlinable public subscript(x: Int, y: Int) -> RGBColor {
        let i = startIndex + y * rowStride + 3 * x
        return RGBColor(r: base.pixels[i], g: base.pixels[i + 1], b: base.pixels[i + 2])
    }

    /// A sub-view; `rect` is in this view's coordinates and is clamped to it.
    public func view(_ sub: PixelRect) -> RGBImageView {
        let r = sub.clamped(toWidth: width, height: height)
        return RGBImageView(base, rect: PixelRect(x: rect.x + r.x, y: rect.y + r.y, width: r.width, height: r.height))
    }

    /// A tightly packed copy of the viewed pixels.
    public func copy() -> RGBImage {
        var out = RGBImage(width: width, height: height)
        if width == 0 || height == 0 { return out }
        copyRows(base.pixels, start: startIndex, stride: rowStride, rowBytes: 3 * width, rows: height, into: &out.pixels)
        return out
    }
}

extension RGBImage {
    /// A read-only view of `rect` (clamped to the image), sharing this image's storage.
    public func view(_ rect: PixelRect) -> RGBImageView { RGBImageView(self, rect: rect) }

    /// A view of the whole image.
    public var fullView: RGBImageView { RGBImageView(self) }

    /// A copy of the pixels inside `rect` (clamped to the image; may be empty).
    public func cropped(to rect: PixelRect) -> RGBImage { view(rect).copy() }

    /// The whole image as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The colour of pixel (x, y), which must lie inside the image.
    @inlinable public func color(x: Int, y: Int) -> RGBColor {
        let i = 3 * (y * width + x)
        return RGBColor(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
    }
}
