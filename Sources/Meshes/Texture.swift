import Imaging

/// A base-colour texture: 8-bit RGBA texels, sRGB-encoded colour with straight alpha, row 0 at the
/// top. Texture coordinates follow glTF: (0, 0) is the top-left corner of the image (not a texel
/// centre), u grows to the right and v downwards; OBJ loaders flip v on the way in.
public struct Texture: Sendable {
    public enum Wrap: Sendable, Equatable { case repeating, clampToEdge, mirroredRepeat }

    public let image: RGBAImage
    public var wrapU: Wrap
    public var wrapV: Wrap
    /// Nearest-texel lookup (glTF magFilter NEAREST), for pixel-art textures; otherwise bilinear.
    public var nearest: Bool

    public init(image: RGBAImage, wrapU: Wrap = .repeating, wrapV: Wrap = .repeating, nearest: Bool = false) {
        precondition(image.width > 0 && image.height > 0, "a texture needs at least one texel")
        self.image = image
        self.wrapU = wrapU
        self.wrapV = wrapV
        self.nearest = nearest
    }

    /// Texel index along one axis of size `n` for a (possibly out-of-range) integer coordinate.
    @inlinable static func wrap(_ i: Int, _ n: Int, _ mode: Wrap) -> Int {
        switch mode {
        case .clampToEdge: return min(max(i, 0), n - 1)
        case .repeating:
            let m = i % n
            return m < 0 ? m + n : m
        case .mirroredRepeat:
            let period = 2 * n
            var m = i % period
            if m < 0 { m += period }
            return m < n ? m : period - 1 - m
        }
    }

    /// The texel values (0...255, sRGB-encoded, straight alpha) at texture coordinates `uv`,
    /// filtered bilinearly (or nearest) with the texture's wrap modes.
    @inlinable public func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let w = image.width, h = image.height
        let x = uv.x * Float(w) - 0.5
        let y = uv.y * Float(h) - 0.5
        guard x.isFinite && y.isFinite else { return SIMD4<Float>(255, 0, 255, 255) }
        return image.pixels.withUnsafeBufferPointer { px -> SIMD4<Float> in
            @inline(__always) func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
                let o = 4 * (Texture.wrap(j, h, wrapV) * w + Texture.wrap(i, w, wrapU))
                return SIMD4<Float>(Float(px[o]), Float(px[o + 1]), Float(px[o + 2]), Float(px[o + 3]))
            }
            if nearest {
                return texel(Int((x + 0.5).rounded(.down)), Int((y + 0.5).rounded(.down)))
            }
            let fx = x.rounded(.down), fy = y.rounded(.down)
            let ix = Int(max(min(fx, 1e8), -1e8)), iy = Int(max(min(fy, 1e8), -1e8))
            let ax = x - fx, ay = y - fy
            let top = texel(ix, iy) * (1 - ax) + texel(ix + 1, iy) * ax
            let bottom = texel(ix, iy + 1) * (1 - ax) + texel(ix + 1, iy + 1) * ax
            return top * (1 - ay) + bottom * ay
        }
    }
}
