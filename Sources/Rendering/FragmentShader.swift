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

/// Values a shader has at a triangle's corners and the rasteriser interpolates across it
/// (perspective-correctly): a vector space over `Float`.
public protocol Varying {
    static func + (a: Self, b: Self) -> Self
    static func * (a: Self, s: Float) -> Self
}

extension Float: Varying {}
extension SIMD3: Varying where Scalar == Float {}
extension SIMD4: Varying where Scalar == Float {}

/// A draw call's shading, split as on a GPU (tinyrenderer's `IShader`): `corners` gives the
/// varyings at the three corners of a source triangle, once per triangle; the rasteriser
/// interpolates them perspective-correctly to every covered pixel centre and `fragment` turns
/// them into the fragment, or nil to discard. Materials, lenses and depth-only occluders are
/// shaders; the rasteriser only covers pixels, tests depth and blends.
///
/// The default varying is the barycentric coordinate in the source triangle itself (corners
/// (1,0,0), (0,1,0), (0,0,1)), for shaders that look data up per pixel.
public protocol FragmentShader {
    associatedtype Corner: Varying = SIMD3<Float>
    /// Whether covered pixels update the depth buffer (opaque surfaces, occluders).
    var writesDepth: Bool { get }
    /// Whether the shader is called at all (false for depth-only occluders).
    var writesColor: Bool { get }
    /// The varyings at corners 0, 1, 2 of source triangle `triangle`, seen from its front or back.
    func corners(triangle: Int, frontFacing: Bool) -> (Corner, Corner, Corner)
    /// The fragment for the varyings interpolated at a pixel centre.
    func fragment(triangle: Int, varying: Corner, frontFacing: Bool) -> Fragment?
}

extension FragmentShader where Corner == SIMD3<Float> {
    /// Barycentric coordinates: the varying at a pixel is its position in the source triangle.
    @inline(__always) public func corners(triangle: Int, frontFacing: Bool) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        (SIMD3<Float>(1, 0, 0), SIMD3<Float>(0, 1, 0), SIMD3<Float>(0, 0, 1))
    }
}

/// Writes depth only: the head occluder, so temples disappear behind the head and ears.
public struct DepthOnlyShader: FragmentShader {
    public init() {}
    public var writesDepth: Bool { true }
    public var writesColor: Bool { false }
    @inline(__always) public func fragment(triangle: Int, varying: SIMD3<Float>, frontFacing: Bool) -> Fragment? { nil }
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
    /// Nothing varies across a flat triangle.
    @inline(__always) public func corners(triangle: Int, frontFacing: Bool) -> (Float, Float, Float) { (0, 0, 0) }
    @inline(__always) public func fragment(triangle: Int, varying: Float, frontFacing: Bool) -> Fragment? {
        Fragment(add: color * opacity, multiply: SIMD3<Float>(repeating: 1 - opacity))
    }
}
