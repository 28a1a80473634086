/// An 8-bit single-channel image, row-major, tightly packed (`rowStride == width`).
///
/// Coordinates: pixel (x, y) has its centre at (x, y); the top-left pixel covers
/// [-0.5, 0.5] x [-0.5, 0.5]. This is the convention of the 300-W annotations and of
/// every landmark this engine reports.
public struct GrayImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// `width * height` bytes, row after row.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: UInt8 = 0) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: fill, count: width * height)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count \(pixels.count) != \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Re-shapes the image to `width x height`, reusing the storage when it is large enough.
    /// Contents are unspecified afterwards; decoders call this so steady-state frames allocate nothing.
    public mutating func reshape(width: Int, height: Int) {
        self.width = width
        self.height = height
        resizeKeepingCapacity(&pixels, to: width * height)
    }
}
