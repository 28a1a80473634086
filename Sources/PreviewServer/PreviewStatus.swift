/// The body of `/status`: the engine's state (its fields at the top level, absent before the first
/// frame) and the stream's clients under `stream`.
public struct PreviewStatus: Sendable, Encodable {
    public var engine: EngineState?
    public var stream: Stream

    /// The MJPEG clients: who is connected, how many were refused, the newest frame's sequence.
    public struct Stream: Sendable, Codable, Equatable {
        public var maxClients: Int
        public var clients: [StreamClients.Snapshot]
        public var refused: Int
        public var latestSequence: UInt64
    }

    private enum CodingKeys: String, CodingKey { case stream }

    public func encode(to encoder: any Encoder) throws {
        try engine?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stream, forKey: .stream)
    }
}
