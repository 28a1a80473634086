/// A V4L2 pixel format code: four ASCII characters packed little-endian into 32 bits, as
/// `v4l2_fourcc('M','J','P','G')` builds them. `description` is the four characters ("MJPG").
public struct FourCC: Hashable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Nil unless `code` is exactly four ASCII characters.
    public init?(_ code: String) {
        let bytes = Array(code.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        rawValue = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }
        // Big-endian variants set bit 31 ("BE" suffix in v4l2-ctl); show it rather than a garbage byte.
        if rawValue & 0x8000_0000 != 0 {
            let low = bytes[0..<3].map { Character(Unicode.Scalar($0)) } + [Character(Unicode.Scalar(bytes[3] & 0x7F))]
            return String(low) + "-BE"
        }
        return String(bytes.map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "?" })
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = FourCC(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a fourcc: \(text)"))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static let mjpeg = FourCC("MJPG")!
    public static let jpeg = FourCC("JPEG")!
    public static let yuyv = FourCC("YUYV")!
    public static let rgb24 = FourCC("RGB3")!
    public static let bgr24 = FourCC("BGR3")!
}
