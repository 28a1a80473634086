/// An axis-aligned rectangle of whole pixels: columns `x ..< x + width`, rows `y ..< y + height`.
///
/// Integer pixel indices, so pixel (x, y) is the one whose centre is at (x, y) (the engine's
/// pixel-centre convention); the rectangle covers [x - 0.5, x + width - 0.5] in continuous
/// coordinates. Width and height may be zero (an empty rectangle) but never negative.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Negative sizes are taken as zero, so callers can pass `x1 - x0` without checking.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle spanning columns `x0 ..< x1` and rows `y0 ..< y1` (empty if reversed).
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Inclusive corners, the form the rasterisers clip with: columns `firstX...lastX`, rows
    /// `firstY...lastY` (empty when reversed).
    public init(firstX: Int, firstY: Int, lastX: Int, lastY: Int) {
        self.init(x: firstX, y: firstY, width: lastX - firstX + 1, height: lastY - firstY + 1)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    /// The last column and row inside (inclusive); `x - 1` / `y - 1` when empty.
    public var lastX: Int { x + width - 1 }
    public var lastY: Int { y + height - 1 }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var area: Int { width * height }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// The common part of two rectangles; empty (with its origin clamped into `other`) when they
    /// do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 {
            let cx = min(max(x0, other.x), other.maxX), cy = min(max(y0, other.y), other.maxY)
            return PixelRect(x: cx, y: cy, width: 0, height: 0)
        }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The common part, or nil when the rectangles do not overlap (the form clipping code guards on).
    public func overlap(_ other: PixelRect) -> PixelRect? {
        let common = intersection(other)
        return common.isEmpty ? nil : common
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        return PixelRect(x0: min(x, other.x), y0: min(y, other.y), x1: max(maxX, other.maxX), y1: max(maxY, other.maxY))
    }

    /// This rectangle clipped to an image of the given size.
    public func clamped(toWidth w: Int, height h: Int) -> PixelRect {
        intersection(PixelRect(x: 0, y: 0, width: w, height: h))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
