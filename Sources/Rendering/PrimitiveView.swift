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

    /// The varyings at the corners of `triangle`, seen from the front or (normals and diffuse light
    /// turned round) the back; `diffuse` false leaves the diffuse light zero for shaders that do not use it.
    @inline(__always)
    func corners(_ triangle: Int, frontFacing: Bool, diffuse: Bool) -> (SurfaceVarying, SurfaceVarying, SurfaceVarying) {
        let i0 = Int(indices[3 * triangle]), i1 = Int(indices[3 * triangle + 1]), i2 = Int(indices[3 * triangle + 2])
        @inline(__always) func corner(_ i: Int) -> SurfaceVarying {
            let t = towardCamera[i], n = frontFacing ? normals[i] : -normals[i]
            let uv = uvs.isEmpty ? SIMD2<Float>.zero : uvs[i]
            let d = diffuse ? (frontFacing ? diffuseFront[i] : diffuseBack[i]) : .zero
            return SurfaceVarying(toward: SIMD4<Float>(t.x, t.y, t.z, uv.x), normal: SIMD4<Float>(n.x, n.y, n.z, uv.y),
                                  diffuse: SIMD4<Float>(d.x, d.y, d.z, 0))
        }
        return (corner(i0), corner(i1), corner(i2))
    }
}

/// What the surface and lens shaders interpolate, packed into three 4-lane registers: the
/// direction towards the camera (close to unit) with u, the normal (not unit after interpolation)
/// with v, and the diffuse light of the visible side.
struct SurfaceVarying: Varying {
    var toward: SIMD4<Float>
    var normal: SIMD4<Float>
    var diffuse: SIMD4<Float>

    @inline(__always) var v: SIMD3<Float> { SIMD3<Float>(toward.x, toward.y, toward.z) }
    /// The unit normal.
    @inline(__always) var n: SIMD3<Float> { fastNormalize(SIMD3<Float>(normal.x, normal.y, normal.z)) }
    @inline(__always) var uv: SIMD2<Float> { SIMD2<Float>(toward.w, normal.w) }
    @inline(__always) var diffuseLight: SIMD3<Float> { SIMD3<Float>(diffuse.x, diffuse.y, diffuse.z) }

    @inline(__always) static func + (a: Self, b: Self) -> Self {
        Self(toward: a.toward + b.toward, normal: a.normal + b.normal, diffuse: a.diffuse + b.diffuse)
    }

    @inline(__always) static func * (a: Self, s: Float) -> Self {
        Self(toward: a.toward * s, normal: a.normal * s, diffuse: a.diffuse * s)
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
        let halfway = l + v
        let s = (n * halfway).sum()
        guard s > 0 else { return 0 }
        // `power` is exactly 0 for n·h <= 1 − 16/shininess (most pixels of a sharp lobe): decide
        // that from s² against |l + v|² before paying for the square root (with a 1e-4 margin for
        // rounding, inside which the lobe is still computed and is zero anyway).
        let cutoff = 1 - 16 / shininess
        if cutoff > 0 && s * s < (cutoff * cutoff * 0.9998) * (halfway * halfway).sum() { return 0 }
        let h = fastNormalize(halfway)
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
