/// What the preview page may do to the engine: list the frames, show their thumbnails and switch
/// the glasses. Implemented by the composition root (the CLI) over the try-on pipeline; the server
/// validates every request against `frames` before calling it, so `select` only ever receives a
/// listed `id` or `id:variant`.
public protocol PreviewControl: Sendable {
    /// The catalogue, in display order.
    var frames: [PreviewFrame] { get }
    /// A JPEG of the glasses `spec` (a listed `id` or `id:variant`) on a neutral background.
    func thumbnail(_ spec: String) throws -> [UInt8]
    /// Draws `spec` from the next frame on.
    func select(_ spec: String) throws
}

/// One catalogue frame as the page lists it.
public struct PreviewFrame: Sendable, Codable, Equatable {
    public var id: String
    public var name: String
    /// Frame size marking, e.g. "50□21-145".
    public var size: String?
    public var variants: [Variant]

    public init(id: String, name: String, size: String? = nil, variants: [Variant] = []) {
        self.id = id
        self.name = name
        self.size = size
        self.variants = variants
    }

    /// A colourway; `color` is a CSS colour for the swatch.
    public struct Variant: Sendable, Codable, Equatable {
        public var id: String
        public var name: String
        public var color: String?
        public init(id: String, name: String, color: String? = nil) {
            self.id = id
            self.name = name
            self.color = color
        }
    }

    /// Every spec this frame answers to: `id` and each `id:variant`.
    public var specs: [String] { [id] + variants.map { "\(id):\($0.id)" } }
}
