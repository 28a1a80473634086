/// An 8-bit RGBA image, interleaved, straight (non-premultiplied) alpha, tightly packed.
/// Used for overlays and rendered layers that are alpha-blended onto an `RGBImage`.
public struct RGBAImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// `4 * width * height` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: 4 * width * height)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == 4 * width * height, "pixel count \(pixels.count) != 4x\(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    @inlinable public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        get { let i = 4 * (y * width + x); return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) }
        set {
            let i = 4 * (y * width + x)
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }
}
