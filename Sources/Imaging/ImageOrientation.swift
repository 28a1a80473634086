/// How a stored image must be turned to stand upright, as EXIF's Orientation tag (0x0112) says:
/// the raw value is the tag's (1 = upright ... 8), the names say what a viewer does to the stored
/// rows. Phones store portraits sideways with 6 or 8 rather than rotating the pixels.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    case upright = 1
    case mirrored = 2                  // flip left-right
    case upsideDown = 3                // rotate 180°
    case upsideDownMirrored = 4        // flip top-bottom
    case transposed = 5                // mirror about the main diagonal
    case rotatedClockwise = 6          // the viewer rotates 90° clockwise
    case transverse = 7                // mirror about the anti-diagonal
    case rotatedCounterclockwise = 8   // the viewer rotates 90° counter-clockwise

    /// True when upright rows are the stored columns (width and height swap).
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel that lands at upright position (x, y), for an upright image `width x height`.
    func storedPosition(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .upright: return (x, y)
        case .mirrored: return (width - 1 - x, y)
        case .upsideDown: return (width - 1 - x, height - 1 - y)
        case .upsideDownMirrored: return (x, height - 1 - y)
        case .transposed: return (y, x)
        case .rotatedClockwise: return (y, width - 1 - x)
        case .transverse: return (height - 1 - y, width - 1 - x)
        case .rotatedCounterclockwise: return (height - 1 - y, x)
        }
    }

    /// `pixels` (stored, `storedWidth` wide, `channels` bytes a pixel) as the upright image.
    func upright(_ pixels: [UInt8], storedWidth: Int, storedHeight: Int, channels: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        if self == .upright { return (pixels, storedWidth, storedHeight) }
        let (width, height) = swapsAxes ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var o = 0
                for y in 0 ..< height {
                    for x in 0 ..< width {
                        let s = storedPosition(x: x, y: y, width: width, height: height)
                        let i = channels * (s.y * storedWidth + s.x)
                        for c in 0 ..< channels { dst[o + c] = src[i + c] }
                        o += channels
                    }
                }
            }
        }
        return (out, width, height)
    }
}

extension RGBImage {
    /// This image, stored as `orientation` says, turned upright.
    public func upright(_ orientation: ImageOrientation) -> RGBImage {
        let r = orientation.upright(pixels, storedWidth: width, storedHeight: height, channels: 3)
        return RGBImage(width: r.width, height: r.height, pixels: r.pixels)
    }
}

extension GrayImage {
    /// This image, stored as `orientation` says, turned upright.
    public func upright(_ orientation: ImageOrientation) -> GrayImage {
        let r = orientation.upright(pixels, storedWidth: width, storedHeight: height, channels: 1)
        return GrayImage(width: r.width, height: r.height, pixels: r.pixels)
    }
}
