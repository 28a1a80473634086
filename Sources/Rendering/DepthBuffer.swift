/// Per-pixel nearest depth for hidden-surface removal, stored as inverse camera depth 1/z (so it
/// interpolates linearly in screen space; larger is nearer, 0 is empty). Tracks the rectangle
/// written since the last clear, so clearing after drawing small glasses into a 720p frame costs
/// only that rectangle.
public struct DepthBuffer: Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    public internal(set) var values: [Float]
    var dirtyMinX = Int.max, dirtyMinY = Int.max, dirtyMaxX = -1, dirtyMaxY = -1

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.values = [Float](repeating: 0, count: width * height)
    }

    /// Empties the buffer, resizing it when the frame size changed.
    public mutating func clear(width: Int, height: Int) {
        if width != self.width || height != self.height {
            self = DepthBuffer(width: width, height: height)
            return
        }
        guard dirtyMaxX >= 0 else { return }
        let w = width
        values.withUnsafeMutableBufferPointer { v in
            for y in dirtyMinY...dirtyMaxY {
                let row = y * w
                for x in dirtyMinX...dirtyMaxX { v[row + x] = 0 }
            }
        }
        dirtyMinX = .max; dirtyMinY = .max; dirtyMaxX = -1; dirtyMaxY = -1
    }

    mutating func markDirty(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        dirtyMinX = min(dirtyMinX, minX); dirtyMinY = min(dirtyMinY, minY)
        dirtyMaxX = max(dirtyMaxX, maxX); dirtyMaxY = max(dirtyMaxY, maxY)
    }

    /// Camera depth z at a pixel, or nil where nothing was drawn.
    public func depth(x: Int, y: Int) -> Float? {
        let v = values[y * width + x]
        return v > 0 ? 1 / v : nil
    }
}
