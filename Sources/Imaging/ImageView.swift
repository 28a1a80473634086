/// A read-only window onto a rectangular region of a gray or RGB image, without copying pixels.
///
/// The view keeps the base image alive (arrays are copy-on-write, so making a view costs one
/// retain). Its region is clamped to the base image at creation, so it may be smaller than
/// requested, or empty. View coordinates are relative to the region: view pixel (0, 0) is base
/// pixel (`rect.x`, `rect.y`), and the pixel-centre convention carries over (a point p in view
/// coordinates is p + (rect.x, rect.y) in base coordinates).
public struct ImageView<Image: PackedImage>: Sendable {
    public let base: Image
    /// The region in base-image pixels, already clamped to the base image.
    public let rect: PixelRect

    public init(_ base: Image, rect: PixelRect) {
        self.base = base
        self.rect = rect.clamped(toWidth: base.width, height: base.height)
    }

    /// The whole image.
    public init(_ base: Image) {
        self.init(base, rect: PixelRect(x: 0, y: 0, width: base.width, height: base.height))
    }

    @inlinable public var width: Int { rect.width }
    @inlinable public var height: Int { rect.height }
    /// Distance in bytes between vertically adjacent pixels in `base.pixels`.
    @inlinable public var rowStride: Int { Image.channels * base.width }
    /// Index in `base.pixels` of the first byte of the view's top-left pixel.
    @inlinable public var startIndex: Int { Image.channels * (rect.y * base.width + rect.x) }

    /// A sub-view; `rect` is in this view's coordinates and is clamped to it.
    public func view(_ sub: PixelRect) -> ImageView {
        let r = sub.clamped(toWidth: width, height: height)
        return ImageView(base, rect: PixelRect(x: rect.x + r.x, y: rect.y + r.y, width: r.width, height: r.height))
    }

    /// A tightly packed copy of the viewed pixels.
    public func copy() -> Image {
        var out = Image(width: width, height: height)
        if width == 0 || height == 0 { return out }
        copyRows(base.pixels, start: startIndex, stride: rowStride, rowBytes: Image.channels * width, rows: height, into: &out.pixels)
        return out
    }
}

public typealias GrayImageView = ImageView<GrayImage>
public typealias RGBImageView = ImageView<RGBImage>

extension ImageView where Image == GrayImage {
    /// The pixel at view coordinates (x, y); both must lie inside the view.
    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        base.pixels[startIndex + y * base.width + x]
    }

    /// The pixel nearest to (x, y), clamping each coordinate into the view (edge replication).
    /// The view must not be empty.
    @inlinable public func pixel(clampingX x: Int, y: Int) -> UInt8 {
        let cx = x < 0 ? 0 : (x >= width ? width - 1 : x)
        let cy = y < 0 ? 0 : (y >= height ? height - 1 : y)
        return self[cx, cy]
    }

    /// Row `y` of the view as a slice of the base storage (indices are base indices).
    public func row(_ y: Int) -> ArraySlice<UInt8> {
        let s = startIndex + y * base.width
        return base.pixels[s ..< s + width]
    }
}

extension ImageView where Image == RGBImage {
    /// The pixel at view coordinates (x, y); both must lie inside the view.
    @inlinable public subscript(x: Int, y: Int) -> RGBColor {
        let i = startIndex + y * rowStride + 3 * x
        return RGBColor(r: base.pixels[i], g: base.pixels[i + 1], b: base.pixels[i + 2])
    }
}
