/// Why a model file could not be turned into a `Mesh`. Every case carries the file path and a
/// human-readable reason, so the CLI can print `description` as its one-line error.
public struct MeshError: Error, CustomStringConvertible, Sendable, Equatable {
    public let path: String
    public let reason: String

    public init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
