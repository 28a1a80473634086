/// An 8-bit sRGB colour as stored in `RGBImage` (no alpha; drawing calls take opacity separately).
public struct RGBColor: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r; self.g = g; self.b = b
    }

    /// A gray level.
    public init(gray v: UInt8) { self.init(r: v, g: v, b: v) }

    /// From 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(r: UInt8(truncatingIfNeeded: hex >> 16), g: UInt8(truncatingIfNeeded: hex >> 8),
                  b: UInt8(truncatingIfNeeded: hex))
    }

    public static let black = RGBColor(r: 0, g: 0, b: 0)
    public static let white = RGBColor(r: 255, g: 255, b: 255)
    public static let gray = RGBColor(r: 128, g: 128, b: 128)
    public static let red = RGBColor(r: 255, g: 0, b: 0)
    public static let green = RGBColor(r: 0, g: 255, b: 0)
    public static let blue = RGBColor(r: 0, g: 0, b: 255)
    public static let yellow = RGBColor(r: 255, g: 255, b: 0)
    public static let cyan = RGBColor(r: 0, g: 255, b: 255)
    public static let magenta = RGBColor(r: 255, g: 0, b: 255)
    public static let orange = RGBColor(r: 255, g: 140, b: 0)
}
