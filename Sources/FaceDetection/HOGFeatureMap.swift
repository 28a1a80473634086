/// Felzenszwalb HOG features of one image (Felzenszwalb, Girshick, McAllester, Ramanan, "Object
/// Detection with Discriminatively Trained Part-Based Models", PAMI 2010, section 6): a grid of
/// 8x8-pixel cells, each described by 31 numbers — 18 contrast-sensitive orientation bins, 9
/// contrast-insensitive bins (each the sum over 4 block normalisations, truncated at 0.2) and 4
/// gradient-energy (texture) features.
///
/// Layout: row-major cells, `stride` (32) floats per cell; the 32nd float is always 0 so a window
/// row is one contiguous, SIMD-friendly run of `cells * 32` floats. Cell (cx, cy) covers pixels
/// `8cx ..< 8cx + 8` x `8cy ..< 8cy + 8` of the image it was computed from; pixels right of / below
/// the last whole cell are ignored.
public struct HOGFeatureMap: Sendable {
    public static let cellSize = 8
    public static let dimensions = 31
    public static let stride = 32

    public internal(set) var cellsX: Int
    public internal(set) var cellsY: Int
    /// `cellsY * cellsX * stride` values.
    public internal(set) var values: [Float]

    public init() {
        cellsX = 0; cellsY = 0; values = []
    }

    /// The features of the `width x height`-cell window whose top-left cell is (x, y), copied into
    /// one flat vector (window row after row, `stride` floats per cell).
    public func window(x: Int, y: Int, width: Int, height: Int) -> [Float] {
        precondition(x >= 0 && y >= 0 && x + width <= cellsX && y + height <= cellsY, "window outside the feature map")
        var out = [Float](repeating: 0, count: width * height * Self.stride)
        let rowLength = width * Self.stride
        for r in 0 ..< height {
            let src = ((y + r) * cellsX + x) * Self.stride
            out.replaceSubrange(r * rowLength ..< (r + 1) * rowLength, with: values[src ..< src + rowLength])
        }
        return out
    }
}
