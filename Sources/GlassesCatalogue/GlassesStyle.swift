/// The frame shapes the procedural generator knows. Each gives the lens outline (in lens-box
/// units) and the construction: acetate frames have thick rounded rims, metal frames thin wire
/// rims and a double bridge.
public enum GlassesStyle: String, Codable, Sendable, CaseIterable {
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
