extension GrayImage {
    /// Makes this image the left-right mirror of `source`: pixel `(x, y)` becomes `(width − 1 − x, y)`
    /// (pixel-centre convention, the flip `ffmpeg -vf hflip` makes). Reuses this image's storage, so a
    /// per-frame mirror (test-time mirror averaging) allocates nothing in the steady state.
    public mutating func setMirrored(of source: GrayImage) {
        reshape(width: source.width, height: source.height)
        let w = source.width
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<source.height {
                    let row = y * w
                    for x in 0..<w { dst[row + x] = src[row + w - 1 - x] }
                }
            }
        }
    }
}
