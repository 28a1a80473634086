/// Why a catalogue could not be read, written or resolved; `description` is one line for the CLI.
public struct CatalogueError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
