/// What a fragment does to the pixel under it, in linear RGB: `result = destination * multiply + add`.
/// An opaque surface has `multiply` 0; alpha blending has `multiply = 1 - alpha`; a lens multiplies
/// by its transmittance and adds its reflection.
public struct Fragment: Sendable {
    public var add: SIMD3<Float>
    public var multiply: SIMD3<Float>

    @inline(__always) public init(add: SIMD3<Float>, multiply: SIMD3<Float> = .zero) {
        self.add = add
        self.multiply = multiply
    }
}

/// The per-pixel half of a draw call (tinyrenderer's `IShader::fragment`): given the source
/// triangle and perspective-correct barycentric coordinates in it, return the fragment, or nil to
/// discard. Materials, lenses and depth-only occluders are shaders; the rasteriser only covers
/// pixels, tests depth and blends.
public protocol FragmentShader {
    /// Whether covered pixels update the depth buffer (opaque surfaces, occluders).
    var writesDepth: Bool { get }
    /// Whether the shader is called at all (false for depth-only occluders).
    var writesColor: Bool { get }
    func fragment(triangle: Int, barycentric: SIMD3<Float>, frontFacing: Bool) -> Fragment?
}

/// Writes depth only: the head occluder, so temples disappear behind the head and ears.
public struct DepthOnlyShader: FragmentShader {
    public init() {}
    public var writesDepth: Bool { true }
    public var writesColor: Bool { false }
    @inline(__always) public func fragment(triangle: Int, barycentric: SIMD3<Float>, frontFacing: Bool) -> Fragment? { nil }
}

/// A flat colour (linear RGB) with optional opacity, for tests and debug views.
public struct FlatShader: FragmentShader {
    public var color: SIMD3<Float>
    public var opacity: Float
    public var writesDepth: Bool

    public init(color: SIMD3<Float>, opacity: Float = 1, writesDepth: Bool = true) {
        self.color = color
        self.opacity = opacity
        self.writesDepth = writesDepth
    }

    public var writesColor: Bool { true }
    @inline(__always) public func fragment(triangle: Int, barycentric: SIMD3<Float>, frontFacing: Bool) -> Fragment? {
        Fragment(add: color * opacity, multiply: SIMD3<Float>(repeating: 1 - opacity))
    }
}
