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
    private let workspace: SharedLightWorkspace

    public init(face: MeanFace) {
        self.init(proxy: FaceLightProxy(face: face))
    }

    public init(proxy: FaceLightProxy) {
        self.proxy = proxy
        positions = proxy.samples.map(\.position)
        normals = proxy.samples.map(\.normal)
        regions = proxy.samples.map(\.region)
        workspace = SharedLightWorkspace(capacity: proxy.samples.count)
    }

    /// The light of one frame from the face at `cameraFromFace`, or nil when too few skin samples
    /// are visible and unclipped. `intrinsics` may describe a scaled copy of `image` (the tracker's
    /// gray image at another size): pixel positions are rescaled to `image`. Allocation-free.
    public func estimate(image: RGBImage, cameraFromFace pose: RigidTransform, intrinsics: CameraIntrinsics) -> LightEstimate? {
        guard image.width >= 2, image.height >= 2 else { return nil }
        return workspace.with { ws in
            let width = image.width
            let albedoInverse = SIMD3<Float>(repeating: 1) / Self.skinAlbedo
            let used = SRGBDecoding.table.withUnsafeBufferPointer { lin in
                image.pixels.withUnsafeBufferPointer { px in
                    gather(pose: pose, intrinsics: intrinsics, width: image.width, height: image.height, into: ws) { u, v in
                        let x0 = Int(u), y0 = Int(v)
                        let ax = u - Float(x0), ay = v - Float(y0)
                        let o00 = 3 * (y0 * width + x0), o01 = o00 + 3, o10 = o00 + 3 * width, o11 = o10 + 3
                        @inline(__always) func clipped(_ o: Int) -> Bool { px[o] >= 250 || px[o + 1] >= 250 || px[o + 2] >= 250 }
                        if clipped(o00) || clipped(o01) || clipped(o10) || clipped(o11) { return nil }
                        @inline(__always) func rgb(_ o: Int) -> SIMD3<Float> {
                            SIMD3<Float>(lin[Int(px[o])], lin[Int(px[o + 1])], lin[Int(px[o + 2])])
                        }
                        let top = rgb(o00) + (rgb(o01) - rgb(o00)) * ax
                        let bottom = rgb(o10) + (rgb(o11) - rgb(o10)) * ax
                        let colour = top + (bottom - top) * ay
                        guard ColorTemperature.luminance(colour) >= 0.012 else { return nil }
                        return colour * albedoInverse
                    }
                }
            }
            return fit(used: used, ws, luminanceOnly: false)
        }
    }

    /// The light of one frame read from a GRAY frame (the tracking path's luma, `GrayImage(luma:)`):
    /// the same samples, rejection rules and fit as `estimate(image:...)`, on luminance only. Each
    /// sample's decoded luma over the albedo's luminance stands for all three channels, so the light
    /// comes out neutral (equal RGB coefficients): its luminance agrees with the colour estimate's
    /// to the few per cent by which decoded BT.601 luma differs from linear luminance (on the
    /// synthetic test faces 2–7 % brighter, most under warm light; directions within 0.5°), but colour
    /// is not measured: `ambientColorTemperature` reads the neutral 6504 K (D65 white) and
    /// `isLuminanceOnly` is true. A pixel is clipped at luma ≥ 250. Allocation-free.
    public func estimate(gray image: GrayImage, cameraFromFace pose: RigidTransform, intrinsics: CameraIntrinsics) -> LightEstimate? {
        guard image.width >= 2, image.height >= 2 else { return nil }
        return workspace.with { ws in
            let width = image.width
            let albedoInverse = 1 / ColorTemperature.luminance(Self.skinAlbedo)
            let used = SRGBDecoding.table.withUnsafeBufferPointer { lin in
                image.pixels.withUnsafeBufferPointer { px in
                    gather(pose: pose, intrinsics: intrinsics, width: image.width, height: image.height, into: ws) { u, v in
                        let x0 = Int(u), y0 = Int(v)
                        let ax = u - Float(x0), ay = v - Float(y0)
                        let o00 = y0 * width + x0, o01 = o00 + 1, o10 = o00 + width, o11 = o10 + 1
                        if px[o00] >= 250 || px[o01] >= 250 || px[o10] >= 250 || px[o11] >= 250 { return nil }
                        let l00 = lin[Int(px[o00])], l01 = lin[Int(px[o01])], l10 = lin[Int(px[o10])], l11 = lin[Int(px[o11])]
                        let top = l00 + (l01 - l00) * ax
                        let bottom = l10 + (l11 - l10) * ax
                        let luminance = top + (bottom - top) * ay
                        guard luminance >= 0.012 else { return nil }
                        return SIMD3<Float>(repeating: luminance * albedoInverse)
                    }
                }
            }
            return fit(used: used, ws, luminanceOnly: true)
        }
    }

    /// Places and projects every proxy sample; for those facing the camera and inside the image,
    /// `read(u, v)` gives the target (linear colour over albedo) or nil to reject the pixel. Kept
    /// samples' basis values, targets, normals and regions go to the workspace; returns their number.
    @inline(__always)
    private func gather(pose: RigidTransform, intrinsics: CameraIntrinsics, width: Int, height: Int, into ws: LightWorkspace,
                        read: (Float, Float) -> SIMD3<Float>?) -> Int {
        let m = pose.rotation.matrix
        let r0 = SIMD3<Float>(Float(m.r0.x), Float(m.r0.y), Float(m.r0.z))
        let r1 = SIMD3<Float>(Float(m.r1.x), Float(m.r1.y), Float(m.r1.z))
        let r2 = SIMD3<Float>(Float(m.r2.x), Float(m.r2.y), Float(m.r2.z))
        let t = SIMD3<Float>(Float(pose.translation.x), Float(pose.translation.y), Float(pose.translation.z))
        let sx = Float(width) / Float(max(intrinsics.width, 1)), sy = Float(height) / Float(max(intrinsics.height, 1))
        let fx = Float(intrinsics.fx) * sx, fy = Float(intrinsics.fy) * sy
        // Pixel centres: a point at intrinsics pixel u sits at image pixel (u + 0.5) s − 0.5.
        let cx = (Float(intrinsics.cx) + 0.5) * sx - 0.5, cy = (Float(intrinsics.cy) + 0.5) * sy - 0.5
        let maxX = Float(width - 1) - 1e-3, maxY = Float(height - 1) - 1e-3
        let count = min(positions.count, ws.capacity)
        let bs = ws.basis
        var used = 0
        positions.withUnsafeBufferPointer { ps in
            normals.withUnsafeBufferPointer { ns in
                regions.withUnsafeBufferPointer { rs in
                    for s in 0..<count {
                        let p = ps[s], nf = ns[s]
                        let c = SIMD3<Float>((r0 * p).sum(), (r1 * p).sum(), (r2 * p).sum()) + t
                        guard c.z > 1 else { continue }
                        let n = SIMD3<Float>((r0 * nf).sum(), (r1 * nf).sum(), (r2 * nf).sum())
                        let toCamera = -c / (c * c).sum().squareRoot()
                        guard (n * toCamera).sum() > minimumViewCosine else { continue }
                        let u = fx * c.x / c.z + cx, v = fy * c.y / c.z + cy
                        guard u >= 0, v >= 0, u < maxX, v < maxY else { continue }
                        guard let target = read(u, v) else { continue }
                        let y = SphericalHarmonicLight.basis(n)
                        let o = used * 9
                        bs[o] = y.0; bs[o + 1] = y.1; bs[o + 2] = y.2; bs[o + 3] = y.3; bs[o + 4] = y.4
                        bs[o + 5] = y.5; bs[o + 6] = y.6; bs[o + 7] = y.7; bs[o + 8] = y.8
                        ws.targets[used] = target
                        ws.normals[used] = n
                        ws.regions[used] = rs[s]
                        used += 1
                    }
                }
            }
        }
        return used
    }

    /// The rejection passes and the ridge fit on the `used` gathered samples.
    private func fit(used: Int, _ ws: LightWorkspace, luminanceOnly: Bool) -> LightEstimate? {
        guard used >= minimumSamples else { return nil }
        let targets = ws.targets, sampleNormals = ws.normals, sampleRegions = ws.regions
        let keep = ws.keep, lowerFace = ws.lowerFace, luminances = ws.luminances, scratch = ws.scratch
        func dominantLight(_ mask: UnsafeMutablePointer<Bool>) -> DominantLightFit? {
            DominantLightFit.fit(normals: UnsafeBufferPointer(start: sampleNormals, count: used),
                                 targets: UnsafeBufferPointer(start: targets, count: used),
                                 keep: UnsafeBufferPointer(start: mask, count: used), count: used,
                                 packedNormals: ws.packedNormals, packedLuminance: ws.packedLuminance,
                                 moments: &ws.moments)
        }
        // Hair, brows, beard and cast shadows: far darker than the face's typical skin.
        for s in 0..<used { luminances[s] = ColorTemperature.luminance(targets[s]); scratch[s] = luminances[s] }
        let typical = OrderStatistic.select(scratch, count: used, k: used / 2)
        var bright = 0
        for s in 0..<used { keep[s] = luminances[s] >= relativeDarkLimit * typical; if keep[s] { bright += 1 } }
        guard bright >= minimumSamples else { return nil }
        // Hair over the forehead (bangs) is often too light to fail the darkness test and covers
        // 40 % of the samples, more than the robust pass can reject: forehead samples must agree
        // with the light the cheeks and nose show, within 3 robust standard deviations of the
        // cheek-and-nose fit plus 10 % of the typical skin (the extrapolation to upward normals).
        var lowerCount = 0
        for s in 0..<used {
            lowerFace[s] = keep[s] && sampleRegions[s] != .forehead
            if lowerFace[s] { lowerCount += 1 }
        }
        if lowerCount >= minimumSamples, lowerCount < bright, let lower = dominantLight(lowerFace) {
            let a = ColorTemperature.luminance(lower.ambient), k = ColorTemperature.luminance(lower.intensityOverPi)
            let residual = ws.residuals
            var m = 0
            for s in 0..<used {
                residual[s] = luminances[s] - (a + k * DominantLightFit.f((sampleNormals[s] * lower.towardsLight).sum()))
                if lowerFace[s] { scratch[m] = abs(residual[s]); m += 1 }
            }
            let limit = 3 * 1.4826 * OrderStatistic.select(scratch, count: m, k: m / 2) + 0.1 * typical
            for s in 0..<used where keep[s] && sampleRegions[s] == .forehead && abs(residual[s]) > limit {
                keep[s] = false
                bright -= 1
            }
        }
        let band1 = ridge.band1, band2 = ridge.band2
        let ridgeWeights = SIMD16<Double>(ridge.band0, band1, band1, band1, band2, band2, band2, band2, band2, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 9) { rw in
            for k in 0..<9 { rw[k] = ridgeWeights[k] }
            // prior, c, refit: 27 coefficients on the stack.
            return withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: 27) { cb -> LightEstimate? in
                let prior = cb.baseAddress!, c = prior + 9, refit = prior + 18
                func fit(into out: UnsafeMutablePointer<SIMD3<Double>>) -> Bool {
                    // Prior: the best ambient-plus-one-light explanation, in fitted units c_k = (Â_l/π) L_k.
                    guard let model = dominantLight(keep) else { return false }
                    let light = model.light
                    for k in 0..<9 {
                        let l = light[k] * SphericalHarmonicLight.band[k]
                        prior[k] = SIMD3<Double>(Double(l.x), Double(l.y), Double(l.z))
                    }
                    ws.solver.reset()
                    for s in 0..<used where keep[s] { ws.solver.add(ws.basis + 9 * s, targets[s], weight: 1) }
                    return ws.solver.solve(ridge: UnsafePointer(rw.baseAddress!), prior: prior, into: out)
                }
                guard fit(into: c) else { return nil }
                // Robust second pass: residual luminance against its median absolute deviation.
                let residuals = ws.residuals, bs = ws.basis
                var m = 0
                for s in 0..<used {
                    var f = SIMD3<Double>.zero
                    for k in 0..<9 { f += c[k] * Double(bs[9 * s + k]) }
                    let d = targets[s] - SIMD3<Float>(Float(f.x), Float(f.y), Float(f.z))
                    residuals[s] = ColorTemperature.luminance(d)
                    if keep[s] { scratch[m] = abs(residuals[s]); m += 1 }
                }
                let mad = OrderStatistic.select(scratch, count: m, k: m / 2)
                let limit = max(3 * 1.4826 * mad, 0.01)
                var kept = 0
                for s in 0..<used where keep[s] { keep[s] = abs(residuals[s]) <= limit; if keep[s] { kept += 1 } }
                if kept < bright && kept >= minimumSamples, fit(into: refit) {
                    for k in 0..<9 { c[k] = refit[k] }
                } else {
                    kept = bright
                }
                // Fitted c_k = (Â_l/π) L_k: undo the band factors to get radiance.
                let light = SphericalHarmonicLight { k in SIMD3<Float>(Float(c[k].x), Float(c[k].y), Float(c[k].z)) / SphericalHarmonicLight.band[k] }
                var estimate = LightEstimate(light: light, sampleCount: kept)
                estimate.isLuminanceOnly = luminanceOnly
                return estimate
            }
        }
    }
}
