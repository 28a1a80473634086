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
    /// Projected vertices (pixel x, y and 1/z), for the per-triangle shading filter.
    let screen: UnsafeBufferPointer<SIMD3<Float>>

    /// The varyings at the corners of `triangle`, seen from the front or (normals and diffuse light
    /// turned round) the back; `diffuse` false leaves the diffuse light zero for shaders that do not use it.
    @inline(__always)
    func corners(_ triangle: Int, frontFacing: Bool, diffuse: Bool, roughness: Float) -> (SurfaceVarying, SurfaceVarying, SurfaceVarying) {
        let i0 = Int(indices[3 * triangle]), i1 = Int(indices[3 * triangle + 1]), i2 = Int(indices[3 * triangle + 2])
        let filter = normalFilter(i0, i1, i2, roughness: roughness)
        @inline(__always) func corner(_ i: Int) -> SurfaceVarying {
            let t = towardCamera[i], n = frontFacing ? normals[i] : -normals[i]
            let uv = uvs.isEmpty ? SIMD2<Float>.zero : uvs[i]
            let d = diffuse ? (frontFacing ? diffuseFront[i] : diffuseBack[i]) : .zero
            return SurfaceVarying(toward: SIMD4<Float>(t.x, t.y, t.z, uv.x), normal: SIMD4<Float>(n.x, n.y, n.z, uv.y),
                                  diffuse: SIMD4<Float>(d.x, d.y, d.z, filter))
        }
        return (corner(i0), corner(i1), corner(i2))
    }

    /// How much of the highlight and mirror reflection one pixel of this triangle should average
    /// away, 0...1, from how fast its normal turns across the screen: geometric specular
    /// anti-aliasing (Kaplanyan et al. 2016; Tokuyoshi & Kaplanyan 2019) widens GGX alpha² by
    /// 2σ²·(|∂n/∂x|² + |∂n/∂y|²); the result is the share of the
    /// material's sharp reflection (1 − roughness) that the widened roughness removes.
    ///
    /// Why (issue 23, speckled rims): a thin metal rim is a tube a pixel or two across whose normal
    /// turns through up to 180° in that width. A pixel centre samples one point of it, so where the
    /// centre lands on an upward facet the pixel mirrors the bright sky, one row over the dark
    /// ground: a dotted line of light pixels along the rim, in every renderer that point-samples.
    /// The derivatives come from the three projected corners; an edge-on triangle is fully
    /// filtered; corners behind the camera (near-clipped triangles) are not filtered.
    ///
    /// A flat triangle (its three vertex normals equal) returns `Shading.flat` (−1): nothing to
    /// filter, and its normal is left as the file gives it (see `Shading.visibleNormal`).
    ///
    /// The shaders use it two ways: the mirror reflection fades towards the environment's mean by
    /// this share, and the key light's highlight is drawn with the lobe of the widened roughness
    /// (`Shading.widened`), on surfaces and on lenses alike.
    @inline(__always)
    func normalFilter(_ i0: Int, _ i1: Int, _ i2: Int, roughness: Float) -> Float {
        let s0 = screen[i0], s1 = screen[i1], s2 = screen[i2]
        guard s0.z > 0 && s1.z > 0 && s2.z > 0 else { return 0 }
        let e1 = SIMD2<Float>(s1.x - s0.x, s1.y - s0.y), e2 = SIMD2<Float>(s2.x - s0.x, s2.y - s0.y)
        let det = e1.x * e2.y - e1.y * e2.x
        let n0 = normals[i0], dn1 = normals[i1] - n0, dn2 = normals[i2] - n0
        let spread = (dn1 * dn1).sum() + (dn2 * dn2).sum()
        guard spread > 1e-6 else { return Shading.flat }
        guard abs(det) > 1e-6 else { return 1 }
        let inv = 1 / det
        let dx = (dn1 * e2.y - dn2 * e1.y) * inv, dy = (dn2 * e1.x - dn1 * e2.x) * inv
        let variance = (dx * dx).sum() + (dy * dy).sum()
        // Widened GGX alpha² = α² + 2σ²·variance, as roughness. σ² = 2 (a filter about three pixels
        // wide) rather than the papers' 0.25: measured on SpeckleTests' 1 mm rims, 0.25 left 27
        // speckles at the front view, 2 none; the papers' renderers also mip-filter the environment.
        let alpha2 = roughness * roughness * roughness * roughness
        let widened = min(1, alpha2 + 4 * variance).squareRoot().squareRoot()
        return roughness < 1 ? max(0, min(1, (widened - roughness) / (1 - roughness))) : 0
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
    /// `PrimitiveView.normalFilter` of the triangle (the same at its three corners), 0...1.
    @inline(__always) var normalFilter: Float { max(0, diffuse.w) }
    /// The triangle's vertex normals are equal: its normal does not turn (`Shading.flat`).
    @inline(__always) var isFlat: Bool { diffuse.w < 0 }

    @inline(__always) static func + (a: Self, b: Self) -> Self {
        Self(toward: a.toward + b.toward, normal: a.normal + b.normal, diffuse: a.diffuse + b.diffuse)
    }

    @inline(__always) static func * (a: Self, s: Float) -> Self {
        Self(toward: a.toward * s, normal: a.normal * s, diffuse: a.diffuse * s)
    }
}

/// Physically inspired shading terms shared by the surface and lens shaders.
enum Shading {
    /// The shading normal of a visible fragment, from the interpolated (not unit) normal `raw` and
    /// the unit direction towards the camera `v`, with a `confidence` in 0...1 for the view-dependent
    /// highlight.
    ///
    /// Why (issue 23, speckled rims): a thin rim is a tube of few facets with smooth normals, so
    /// the vertex normals of one triangle point up to 180° apart. Interpolated between them, the
    /// normal (1) turns away from the camera near the silhouette although the surface is visible,
    /// and (2) shrinks towards zero, so its direction, once normalised, is noise. Either way a lone
    /// pixel picked up the full grazing Fresnel reflection or the key light's sharp highlight: a
    /// light speckle. The normal is bent back to face the camera (n·v ≥ 0.05, as real-time
    /// engines do), and the highlight fades out where the interpolated normal is
    /// shorter than 0.7 (vertex normals more than about 90° apart), leaving the diffuse light,
    /// which is interpolated per vertex and stays smooth. (The mirror reflection of such pixels is
    /// averaged by `PrimitiveView.normalFilter` instead.)
    ///
    /// Only normals that turn within their triangle are bent (`bends`): a flat triangle's normal is
    /// the file's, even where it faces away. The ID-1 card of the card-scale ground truth is such a
    /// quad, double-sided, whose winding and normal disagree; bent to n·v = 0.05 it took the grazing
    /// Fresnel mirror of the sky, its edge contrast against the skin changed and the card detector
    /// accepted no frame (GroundTruthTests, TurnedHeadTests card scale failed with 55fbfd7).
    @inline(__always) static func visibleNormal(_ raw: SIMD3<Float>, _ v: SIMD3<Float>, bends: Bool = true) -> (n: SIMD3<Float>, confidence: Float) {
        let l2 = (raw * raw).sum()
        let length = l2.squareRoot()
        var n = l2 > 0 ? raw * (1 / length) : raw
        let ndv = (n * v).sum()
        if bends && ndv < minimumFacing { n = fastNormalize(n + v * (minimumFacing - ndv)) }
        return (n, max(0, min(1, (length - 0.3) * 2.5)))
    }

    static let minimumFacing: Float = 0.05
    /// What `PrimitiveView.normalFilter` returns for a flat triangle.
    static let flat: Float = -1

    /// Schlick's approximation of the Fresnel reflectance (Schlick 1994).
    @inline(__always) static func schlick(_ f0: SIMD3<Float>, _ cosine: Float) -> SIMD3<Float> {
        let m = 1 - max(0, min(1, cosine))
        let m2 = m * m
        return f0 + (SIMD3<Float>(repeating: 1) - f0) * (m2 * m2 * m)
    }

    /// Blinn-Phong exponent matching a GGX roughness (alpha = roughness^2), capped for stability.
    /// Surfaces use the defaults; a polished lens's glint (`LensShader`) a finer roughness floor,
    /// `lensRoughnessFloor`, and a cap up to 4096 (within about 3° of the mirror direction).
    @inline(__always) static func shininess(roughness: Float, floor: Float = 0.04, cap: Float = 512) -> Float {
        let alpha = max(roughness, floor) * max(roughness, floor)
        return max(1, min(cap, 2 / (alpha * alpha) - 2))
    }

    /// The smallest roughness a lens's glint is drawn with (surfaces: 0.04).
    static let lensRoughnessFloor: Float = 0.02

    /// The roughness `PrimitiveView.normalFilter` widened `roughness` to: the filter is the share
    /// of the way from `roughness` to 1.
    @inline(__always) static func widened(roughness: Float, filter: Float) -> Float {
        roughness + filter * (1 - roughness)
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
