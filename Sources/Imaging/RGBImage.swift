/// An 8-bit-per-channel RGB image, interleaved R, G, B, row-major, tightly packed
/// (`rowStride == 3 * width`). Values are sRGB-encoded as decoded from JPEG.
///
/// Same pixel-centre convention as `GrayImage`.
public struct RGBImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// `3 * width * height` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        var p = [UInt8](repeating: 0, count: 3 * width * height)
        if fill != (0, 0, 0) {
            for i in stride(from: 0, to: p.count, by: 3) { p[i] = fill.0; p[i + 1] = fill.1; p[i + 2] = fill.2 }
        }
        self.pixels = p
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == 3 * width * height, "pixel count \(pixels.count) != 3x\(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public var rowStride: Int { 3 * width }

    @inlinable public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        get { let i = 3 * (y * width + x); return (pixels[i], pixels[i + 1], pixels[i + 2]) }
        set { let i = 3 * (y * width + x); pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b }
    }

    /// Re-shapes to `width x height`, reusing storage when possible; contents unspecified afterwards.
    public mutating func reshape(width: Int, height: Int) {
        self.width = width
        self.height = height
        resizeKeepingCapacity(&pixels, to: 3 * width * height)
    }
}

extension RGBImage {
    /// The colour of pixel (x, y), which must lie inside the image.
    @inlinable public func color(x: Int, y: Int) -> RGBColor {
        let i = 3 * (y * width + x)
        return RGBColor(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
    }
}
