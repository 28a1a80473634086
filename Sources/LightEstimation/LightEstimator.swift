import FaceModel
import Geometry
import Imaging

/// Estimates the scene's light from one posed face in one frame: second-order spherical-harmonic
/// irradiance fitted to the skin's shading (after Marschner & Greenberg's inverse lighting and
/// Ramamoorthi & Hanrahan's irradiance representation; the per-frame face-light fit of ARKit's
/// `ARDirectionalLightEstimate`).
///
/// Method: every `FaceLightProxy` sample (forehead, cheeks, nose) is placed by `cameraFromFace`
/// (face frame → camera, mm) and projected with the tracker's pinhole intrinsics (lens distortion
/// ignored; pixel-centre convention). Its colour is read bilinearly from the frame and decoded to
/// linear RGB. Samples facing the camera at less than 72° (cos > 0.3) are kept; samples with a
/// clipped (≥ 250) or very dark (linear luminance < 0.012: hair, brows, beard, shadow) pixel are
/// rejected, and so are samples darker than 30 % of the median sample (hair, brows, beard, cast
/// shadow, whatever the exposure); forehead samples that disagree with the light the cheeks and
/// nose show (bangs) are dropped. Under a Lambertian skin of constant albedo ρ (`skinAlbedo`), a pixel reads
/// ρ·E(n)/π = ρ Σ (Â_l/π) L_lm Y_lm(n), linear in the nine L_lm per channel. The face shows only
/// the camera-facing part of the sphere of normals (up to about 50° off axis on the proxy), where
/// some combinations of the nine functions nearly vanish (1, z and 3z² − 1 look alike), so the
/// unregularised fit is ill-conditioned (condition number ~10⁵; 8-bit noise gave 10–30 % errors).
/// The nine coefficients are therefore fitted by ridge-regularised least squares (`RidgeSolver9`)
/// towards a prior: the best "ambient plus one distant light" explanation of the same samples
/// (`DominantLightFit`, eight well-determined numbers). The data move the coefficients wherever they
/// are well observed (a second light, a coloured fill); the poorly observed combinations stay at
/// the prior's. Then samples whose residual exceeds 3 robust standard deviations (1.4826 × MAD;
/// hair, glasses, specular highlights) are dropped and the fit repeated once. No temporal
/// smoothing here: see `LightTracker`.
public struct LightEstimator: Sendable {
    /// The reference skin albedo, linear RGB: ColorChecker patch 2 "light skin", sRGB (194, 150,
    /// 130) (X-Rite; McCamy, Marcus & Davidson 1976). Albedo and light cannot be told apart, so
    /// every intensity is relative to this choice.
    public static let skinAlbedo = SRGBDecoding.linear(194, 150, 130)

    public let proxy: FaceLightProxy
    /// Ridge weights λ per band, towards the ambient-plus-one-light prior (`DominantLightFit`).
    public var ridge: (band0: Double, band1: Double, band2: Double) = (1e-3, 1e-2, 1e-1)
    /// Fewer usable samples than this and the frame gives no estimate.
    public var minimumSamples = 40
    /// Samples darker than this fraction of the median sample are not skin (hair, brows, shadow).
    public var relativeDarkLimit: Float = 0.3
    /// Samples whose normal makes less than this cosine with the direction to the camera are skipped.
    public var minimumViewCosine: Float = 0.3

    // Sample geometry as flat arrays for the per-frame loop.
    let positions: [SIMD3<Float>]
    let normals: [SIMD3<Float>]
    let regions: [FaceLightProxy.Region]

    public init(face: MeanFace) {
        self.init(proxy: FaceLightProxy(face: face))
    }

    public init(proxy: FaceLightProxy) {
        self.proxy = proxy
        positions = proxy.samples.map(\.position)
        normals = proxy.samples.map(\.normal)
        regions = proxy.samples.map(\.region)
    }

    /// The light of one frame from the face at `cameraFromFace`, or nil when too few skin samples
    /// are visible and unclipped. `intrinsics` may describe a scaled copy of `image` (the tracker's
    /// gray image at another size): pixel positions are rescaled to `image`.
    public func estimate(image: RGBImage, cameraFromFace pose: RigidTransform, intrinsics: CameraIntrinsics) -> LightEstimate? {
        guard image.width >= 2, image.height >= 2 else { return nil }
        let m = pose.rotation.matrix
        let r0 = SIMD3<Float>(Float(m.r0.x), Float(m.r0.y), Float(m.r0.z))
        let r1 = SIMD3<Float>(Float(m.r1.x), Float(m.r1.y), Float(m.r1.z))
        let r2 = SIMD3<Float>(Float(m.r2.x), Float(m.r2.y), Float(m.r2.z))
        let t = SIMD3<Float>(Float(pose.translation.x), Float(pose.translation.y), Float(pose.translation.z))
        let sx = Float(image.width) / Float(max(intrinsics.width, 1)), sy = Float(image.height) / Float(max(intrinsics.height, 1))
        let fx = Float(intrinsics.fx) * sx, fy = Float(intrinsics.fy) * sy
        // Pixel centres: a point at intrinsics pixel u sits at image pixel (u + 0.5) s − 0.5.
        let cx = (Float(intrinsics.cx) + 0.5) * sx - 0.5, cy = (Float(intrinsics.cy) + 0.5) * sy - 0.5
        let width = image.width, height = image.height
        let maxX = Float(width - 1) - 1e-3, maxY = Float(height - 1) - 1e-3
        let albedoInverse = SIMD3<Float>(repeating: 1) / Self.skinAlbedo
        let count = positions.count
        var basis = [Float](repeating: 0, count: count * 9)
        var targets = [SIMD3<Float>](repeating: .zero, count: count)
        var sampleNormals = [SIMD3<Float>](repeating: .zero, count: count)
        var sampleRegions = [FaceLightProxy.Region](repeating: .nose, count: count)
        var used = 0
        SRGBDecoding.table.withUnsafeBufferPointer { lin in
            image.pixels.withUnsafeBufferPointer { px in
                positions.withUnsafeBufferPointer { ps in
                    normals.withUnsafeBufferPointer { ns in
                        basis.withUnsafeMutableBufferPointer { bs in
                            for s in 0..<count {
                                let p = ps[s], nf = ns[s]
                                let c = SIMD3<Float>((r0 * p).sum(), (r1 * p).sum(), (r2 * p).sum()) + t
                                guard c.z > 1 else { continue }
                                let n = SIMD3<Float>((r0 * nf).sum(), (r1 * nf).sum(), (r2 * nf).sum())
                                let toCamera = -c / (c * c).sum().squareRoot()
                                guard (n * toCamera).sum() > minimumViewCosine else { continue }
                                let u = fx * c.x / c.z + cx, v = fy * c.y / c.z + cy
                                guard u >= 0, v >= 0, u < maxX, v < maxY else { continue }
                                let x0 = Int(u), y0 = Int(v)
                                let ax = u - Float(x0), ay = v - Float(y0)
                                let o00 = 3 * (y0 * width + x0), o01 = o00 + 3, o10 = o00 + 3 * width, o11 = o10 + 3
                                @inline(__always) func clipped(_ o: Int) -> Bool { px[o] >= 250 || px[o + 1] >= 250 || px[o + 2] >= 250 }
                                if clipped(o00) || clipped(o01) || clipped(o10) || clipped(o11) { continue }
                                @inline(__always) func rgb(_ o: Int) -> SIMD3<Float> {
                                    SIMD3<Float>(lin[Int(px[o])], lin[Int(px[o + 1])], lin[Int(px[o + 2])])
                                }
                                let top = rgb(o00) + (rgb(o01) - rgb(o00)) * ax
                                let bottom = rgb(o10) + (rgb(o11) - rgb(o10)) * ax
                                let colour = top + (bottom - top) * ay
                                guard ColorTemperature.luminance(colour) >= 0.012 else { continue }
                                let y = SphericalHarmonicLight.basis(n)
                                let o = used * 9
                                bs[o] = y.0; bs[o + 1] = y.1; bs[o + 2] = y.2; bs[o + 3] = y.3; bs[o + 4] = y.4
                                bs[o + 5] = y.5; bs[o + 6] = y.6; bs[o + 7] = y.7; bs[o + 8] = y.8
                                targets[used] = colour * albedoInverse
                                sampleNormals[used] = n
                                sampleRegions[used] = regions[s]
                                used += 1
                            }
                        }
                    }
                }
            }
        }
        guard used >= minimumSamples else { return nil }
        let ridgeWeights: [Double] = [ridge.band0, ridge.band1, ridge.band1, ridge.band1, ridge.band2, ridge.band2, ridge.band2, ridge.band2, ridge.band2]
        var solver = RidgeSolver9()
        var keep = [Bool](repeating: true, count: used)
        // Hair, brows, beard and cast shadows: far darker than the face's typical skin.
        let luminances = (0..<used).map { ColorTemperature.luminance(targets[$0]) }
        let typical = luminances.sorted()[used / 2]
        var bright = 0
        for s in 0..<used { keep[s] = luminances[s] >= relativeDarkLimit * typical; if keep[s] { bright += 1 } }
        guard bright >= minimumSamples else { return nil }
        // Hair over the forehead (bangs) is often too light to fail the darkness test and covers
        // 40 % of the samples, more than the robust pass can reject: forehead samples must agree
        // with the light the cheeks and nose show, within 3 robust standard deviations of the
        // cheek-and-nose fit plus 10 % of the typical skin (the extrapolation to upward normals).
        var lowerFace = keep
        for s in 0..<used where sampleRegions[s] == .forehead { lowerFace[s] = false }
        let lowerCount = lowerFace.reduce(0) { $0 + ($1 ? 1 : 0) }
        if lowerCount >= minimumSamples, lowerCount < bright,
           let lower = sampleNormals.withUnsafeBufferPointer({ ns in targets.withUnsafeBufferPointer { ts in
               lowerFace.withUnsafeBufferPointer { ks in DominantLightFit.fit(normals: ns, targets: ts, keep: ks, count: used) } } }) {
            let a = ColorTemperature.luminance(lower.ambient), k = ColorTemperature.luminance(lower.intensityOverPi)
            let residual = (0..<used).map { luminances[$0] - (a + k * DominantLightFit.f((sampleNormals[$0] * lower.towardsLight).sum())) }
            let spread = (0..<used).filter { lowerFace[$0] }.map { abs(residual[$0]) }.sorted()
            let limit = 3 * 1.4826 * spread[spread.count / 2] + 0.1 * typical
            for s in 0..<used where keep[s] && sampleRegions[s] == .forehead && abs(residual[s]) > limit {
                keep[s] = false
                bright -= 1
            }
        }
        func fit() -> [SIMD3<Double>]? {
            // Prior: the best ambient-plus-one-light explanation, in fitted units c_k = (Â_l/π) L_k.
            let model = sampleNormals.withUnsafeBufferPointer { ns in
                targets.withUnsafeBufferPointer { ts in
                    keep.withUnsafeBufferPointer { ks in DominantLightFit.fit(normals: ns, targets: ts, keep: ks, count: used) }
                }
            }
            guard let model else { return nil }
            let prior = (0..<9).map { k in
                let l = model.light.coefficients[k] * SphericalHarmonicLight.band[k]
                return SIMD3<Double>(Double(l.x), Double(l.y), Double(l.z))
            }
            solver.reset()
            basis.withUnsafeBufferPointer { bs in
                for s in 0..<used where keep[s] { solver.add(bs.baseAddress! + 9 * s, targets[s], weight: 1) }
            }
            return solver.solve(ridge: ridgeWeights, prior: prior)
        }
        guard var c = fit() else { return nil }
        // Robust second pass: residual luminance against its median absolute deviation.
        var residuals = [Float](repeating: 0, count: used)
        basis.withUnsafeBufferPointer { bs in
            for s in 0..<used {
                var f = SIMD3<Double>.zero
                for k in 0..<9 { f += c[k] * Double(bs[9 * s + k]) }
                let d = targets[s] - SIMD3<Float>(Float(f.x), Float(f.y), Float(f.z))
                residuals[s] = ColorTemperature.luminance(d)
            }
        }
        let sorted = (0..<used).filter { keep[$0] }.map { abs(residuals[$0]) }.sorted()
        let mad = sorted[sorted.count / 2]
        let limit = max(3 * 1.4826 * mad, 0.01)
        var kept = 0
        for s in 0..<used where keep[s] { keep[s] = abs(residuals[s]) <= limit; if keep[s] { kept += 1 } }
        if kept < bright && kept >= minimumSamples, let refit = fit() { c = refit } else { kept = bright }
        // Fitted c_k = (Â_l/π) L_k: undo the band factors to get radiance.
        let light = SphericalHarmonicLight(coefficients: (0..<9).map { k in
            SIMD3<Float>(Float(c[k].x), Float(c[k].y), Float(c[k].z)) / SphericalHarmonicLight.band[k]
        })
        return LightEstimate(light: light, sampleCount: kept)
    }
}
