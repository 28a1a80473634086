/// A pipeline set-up or per-frame failure with a one-line, user-facing description.
public struct PipelineError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
