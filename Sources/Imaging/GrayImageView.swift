/// A read-only window onto a rectangular region of a `GrayImage`, without copying pixels.
///
/// The view keeps the base image alive (arrays are copy-on-write, so making a view costs one
/// retain). Its region is clamped to the base image at creation, so it may be smaller than
/// requested, or empty. View coordinates are relative to the region: view pixel (0, 0) is base
/// pixel (`rect.x`, `rect.y`), and the pixel-centre convention carries over (a point p in view
/// coordinates is p + (rect.x, rect.y) in base coordinates).
public struct GrayImageView: Sendable {
    public let base: GrayImage
    /// The region in base-image pixels, already clamped to the base image.
    public let rect: PixelRect

    public init(_ base: GrayImage, rect: PixelRect) {
        self.base = base
        self.rect = rect.clamped(toWidth: base.width, height: base.height)
    }

    /// The whole image.
    public init(_ base: GrayImage) {
        self.init(base, rect: PixelRect(x: 0, y: 0, width: base.width, height: base.height))
    }

    @inlinable public var width: Int { rect.width }
    @inlinable public var height: Int { rect.height }
    /// Distance in bytes between vertically adjacent pixels in `base.pixels`.
    @inlinable public var rowStride: Int { base.width }
    /// Index in `base.pixels` of the view's top-left pixel.
    @inlinable public var startIndex: Int { rect.y * base.width + rect.x }

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

    /// A sub-view; `rect` is in this view's coordinates and is clamped to it.
    public func view(_ sub: PixelRect) -> GrayImageView {
        let r = sub.clamped(toWidth: width, height: height)
        return GrayImageView(base, rect: PixelRect(x: rect.x + r.x, y: rect.y + r.y, width: r.width, height: r.height))
    }

    /// A tightly packed copy of the viewed pixels.
    public func copy() -> GrayImage {
        var out = GrayImage(width: width, height: height)
        if width == 0 || height == 0 { return out }
        copyRows(base.pixels, start: startIndex, stride: rowStride, rowBytes: width, rows: height, into: &out.pixels)
        return out
    }
}

extension GrayImage {
    /// A read-only view of `rect` (clamped to the image), sharing this image's storage.
    public func view(_ rect: PixelRect) -> GrayImageView { GrayImageView(self, rect: rect) }

    /// A view of the whole image.
    public var fullView: GrayImageView { GrayImageView(self) }

    /// A copy of the pixels inside `rect` (clamped to the image; may be empty).
    public func cropped(to rect: PixelRect) -> GrayImage { view(rect).copy() }

    /// The whole image as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
}
