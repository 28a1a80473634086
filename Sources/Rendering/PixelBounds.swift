/// An inclusive rectangle of pixel indices, (minX, minY) to (maxX, maxY): the scissor rectangle
/// that limits drawing, and the screen footprint of a mesh.
public struct PixelBounds: Sendable, Equatable {
    public var minX: Int
    public var minY: Int
    public var maxX: Int
    public var maxY: Int

    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest rectangle holding both.
    public func union(_ o: PixelBounds) -> PixelBounds {
        PixelBounds(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    /// The common part, or nil when the rectangles do not overlap.
    public func intersection(_ o: PixelBounds) -> PixelBounds? {
        let r = PixelBounds(minX: max(minX, o.minX), minY: max(minY, o.minY), maxX: min(maxX, o.maxX), maxY: min(maxY, o.maxY))
        return r.minX <= r.maxX && r.minY <= r.maxY ? r : nil
    }
}
