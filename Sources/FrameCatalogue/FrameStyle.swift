/// The frame shapes the procedural generator knows. Each gives the lens outline (in lens-box
/// units) and the construction: acetate frames have thick rounded rims, metal frames thin wire
/// rims and a double bridge.
public enum FrameStyle: String, Codable, Sendable, CaseIterable {
    case round
    case rectangular
    case aviator
    case catEye = "cat-eye"

    public var displayName: String {
        switch self {
        case .round: return "Round"
        case .rectangular: return "Rectangular"
        case .aviator: return "Aviator"
        case .catEye: return "Cat-eye"
        }
    }

    /// Lens height B as a fraction of the lens width A (ISO 8624 boxing system).
    var heightRatio: Float {
        switch self {
        case .round: return 0.9
        case .rectangular: return 0.6
        case .aviator: return 0.86
        case .catEye: return 0.66
        }
    }

    var isMetal: Bool { self == .round || self == .aviator }
}

/// An ISO 8624 frame size in the boxing system, millimetres: lens width A (the horizontal side
/// of the box around one lens), distance between lenses DBL (the bridge), temple length (hinge
/// centre to temple end along the temple). Written "52□18-140".
public struct FrameSize: Codable, Sendable, Equatable {
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
