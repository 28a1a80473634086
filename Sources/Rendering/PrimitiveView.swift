import Meshes

/// Camera-space vertex data of one primitive during a draw call, read by the material shaders:
/// unit directions from each vertex towards the camera (interpolated rather than recomputed per
/// pixel: one square root less per fragment, invisible on triangles a few pixels across), normals,
/// UVs and the diffuse light at each vertex (for either side of the surface).
/// The buffers belong to the `RenderableMesh` scratch and live for the duration of the call.
struct PrimitiveView {
    let indices: UnsafeBufferPointer<UInt32>
    let towardCamera: UnsafeBufferPointer<SIMD3<Float>>
    let normals: UnsafeBufferPointer<SIMD3<Float>>
    let uvs: UnsafeBufferPointer<SIMD2<Float>>
    let diffuseFront: UnsafeBufferPointer<SIMD3<Float>>
    let diffuseBack: UnsafeBufferPointer<SIMD3<Float>>

    /// Direction to the camera (close to unit), unit normal (towards the viewer when seen from the
    /// back), UV and diffuse light of the visible side at barycentric `l`.
    @inline(__always)
    func interpolate(_ triangle: Int, _ l: SIMD3<Float>, frontFacing: Bool)
        -> (v: SIMD3<Float>, n: SIMD3<Float>, uv: SIMD2<Float>, diffuse: SIMD3<Float>) {
        let i0 = Int(indices[3 * triangle]), i1 = Int(indices[3 * triangle + 1]), i2 = Int(indices[3 * triangle + 2])
        let v = towardCamera[i0] * l.x + towardCamera[i1] * l.y + towardCamera[i2] * l.z
        var n = fastNormalize(normals[i0] * l.x + normals[i1] * l.y + normals[i2] * l.z)
        let d: SIMD3<Float>
        if frontFacing {
            d = diffuseFront[i0] * l.x + diffuseFront[i1] * l.y + diffuseFront[i2] * l.z
        } else {
            n = -n
            d = diffuseBack[i0] * l.x + diffuseBack[i1] * l.y + diffuseBack[i2] * l.z
        }
        var uv = SIMD2<Float>.zero
        if !uvs.isEmpty { uv = uvs[i0] * l.x + uvs[i1] * l.y + uvs[i2] * l.z }
        return (v, n, uv, d)
    }

    /// `interpolate` without the diffuse light, for shaders that do not use it (polished lenses).
    @inline(__always)
    func interpolateGeometry(_ triangle: Int, _ l: SIMD3<Float>, frontFacing: Bool) -> (v: SIMD3<Float>, n: SIMD3<Float>, uv: SIMD2<Float>) {
        let i0 = Int(indices[3 * triangle]), i1 = Int(indices[3 * triangle + 1]), i2 = Int(indices[3 * triangle + 2])
        let v = towardCamera[i0] * l.x + towardCamera[i1] * l.y + towardCamera[i2] * l.z
        var n = fastNormalize(normals[i0] * l.x + normals[i1] * l.y + normals[i2] * l.z)
        if !frontFacing { n = -n }
        var uv = SIMD2<Float>.zero
        if !uvs.isEmpty { uv = uvs[i0] * l.x + uvs[i1] * l.y + uvs[i2] * l.z }
        return (v, n, uv)
    }
}

/// Physically inspired shading terms shared by the surface and lens shaders.
enum Shading {
    /// Schlick's approximation of the Fresnel reflectance (Schlick 1994).
    @inline(__always) static func schlick(_ f0: SIMD3<Float>, _ cosine: Float) -> SIMD3<Float> {
        let m = 1 - max(0, min(1, cosine))
        let m2 = m * m
        return f0 + (SIMD3<Float>(repeating: 1) - f0) * (m2 * m2 * m)
    }

    /// Blinn-Phong exponent matching a GGX roughness (alpha = roughness^2), capped for stability.
    @inline(__always) static func shininess(roughness: Float) -> Float {
        let alpha = max(roughness, 0.04) * max(roughness, 0.04)
        return max(1, min(512, 2 / (alpha * alpha) - 2))
    }

    /// Energy-normalised Blinn-Phong lobe, times n·l.
    @inline(__always) static func specular(n: SIMD3<Float>, v: SIMD3<Float>, l: SIMD3<Float>, shininess: Float) -> Float {
        let ndl = (n * l).sum()
        guard ndl > 0 else { return 0 }
        let h = fastNormalize(l + v)
        let ndh = (n * h).sum()
        guard ndh > 0 else { return 0 }
        return power(ndh, shininess) * (shininess + 8) * (1 / (8 * Float.pi)) * ndl
    }

    /// x^n for x in [0, 1] as (1 - (1 - x) n / 16)^16 (the limit form of exp(n ln x) with
    /// ln x ≈ x - 1): a few per cent from powf where the highlight is bright (x near 1), falling
    /// to zero like it away from there; four multiplications instead of a powf call per pixel
    /// (powf was 7 % of a frame).
    @inline(__always) static func power(_ x: Float, _ n: Float) -> Float {
        var t = max(0, 1 - (1 - x) * n * (1 / 16 as Float))
        t *= t; t *= t; t *= t; t *= t
        return t
    }

    @inline(__always) static func reflect(_ v: SIMD3<Float>, _ n: SIMD3<Float>) -> SIMD3<Float> {
        n * (2 * (n * v).sum()) - v
    }
}

/// Unit vector (the zero vector stays zero), inlined in the per-pixel shaders.
@inline(__always) func fastNormalize(_ a: SIMD3<Float>) -> SIMD3<Float> {
    let l2 = (a * a).sum()
    return l2 > 0 ? a * (1 / l2.squareRoot()) : a
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
