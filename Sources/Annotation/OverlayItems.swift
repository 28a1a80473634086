/// Which annotations are drawn over an output frame. Parsed from the CLI's comma-separated
/// `--overlay` lists ("landmarks,pose,fps", "none"); each command says which items it accepts.
public struct OverlayItems: Sendable, Equatable {
    public var landmarks = false
    public var pose = false
    public var box = false
    public var pupils = false
    public var metrics = false
    public var light = false
    public var fps = false

    public init() {}

    /// Parses `list`, accepting only the names in `allowed` (plus "none").
    public init(list: String, allowed: [String]) throws {
        for item in list.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            guard item == "none" || allowed.contains(item) else {
                throw OverlayError("--overlay: unknown item '\(item)' (expected \(allowed.joined(separator: ", ")) or none)")
            }
            switch item {
            case "landmarks": landmarks = true
            case "pose": pose = true
            case "box": box = true
            case "pupils": pupils = true
            case "metrics": metrics = true
            case "light": light = true
            case "fps": fps = true
            default: break
            }
        }
    }

    /// True when nothing is drawn, so the annotation stage can be skipped.
    public var isEmpty: Bool { self == OverlayItems() }
}

/// An `--overlay` list naming an item the command does not draw.
public struct OverlayError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
