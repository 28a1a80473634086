/// The one ISO 8624 size of a pair of glasses, boxing system, millimetres: lens width A (the horizontal side
/// of the box around one lens), distance between lenses DBL (the bridge), temple length (hinge
/// centre to temple end along the temple). Written "52□18-140".
public struct GlassesSize: Codable, Sendable, Equatable {
    public var lensWidth: Float
    public var bridge: Float
    public var templeLength: Float

    public init(lensWidth: Float, bridge: Float, templeLength: Float) {
        self.lensWidth = lensWidth
        self.bridge = bridge
        self.templeLength = templeLength
    }

    public var code: String { "\(Int(lensWidth.rounded()))□\(Int(bridge.rounded()))-\(Int(templeLength.rounded()))" }

    /// Parses "52□18-140" (also accepting "52-18-140" and "52x18-140").
    public init?(code: String) {
        let normalized = code.replacingOccurrences(of: "□", with: "-").replacingOccurrences(of: "x", with: "-")
        let parts = normalized.split(separator: "-").compactMap { Float($0) }
        guard parts.count == 3, parts.allSatisfy({ $0 > 0 }) else { return nil }
        self.init(lensWidth: parts[0], bridge: parts[1], templeLength: parts[2])
    }
}
