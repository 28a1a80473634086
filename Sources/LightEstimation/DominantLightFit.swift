/// The best "ambient plus one distant light" explanation of a face's shading: the prior the
/// spherical-harmonic fit is regularised towards.
///
/// Model, per channel c: E(n)/π = a_c + k_c · f(n·d), with f the second-order spherical-harmonic
/// irradiance of a distant light, f(t) = Σ_l (Â_l/π)(2l+1)/4 P_l(t) = 0.09375 + 0.5 t + 0.46875 t²
/// (Ramamoorthi & Hanrahan 2001), a_c the uniform ambient radiance and k_c = I_c/π the light's
/// irradiance over π. For a fixed direction d the model is linear in (a, k); d is found on the
/// luminance by a search over directions spread evenly on the sphere (Fibonacci lattice; see
/// `lattice`), then a shrinking-step pattern search around each of the three best; a and k are kept non-negative. Unlike the nine
/// free coefficients, these eight numbers are well determined by the camera-facing half of the
/// sphere of normals a face shows.
struct DominantLightFit {
    var towardsLight: SIMD3<Float>
    var ambient: SIMD3<Float>
    var intensityOverPi: SIMD3<Float>

    /// f(t) = c0 + c1 t + c2 t².
    static let c0: Float = 0.09375, c1: Float = 0.5, c2: Float = 0.46875
    @inline(__always) static func f(_ t: Float) -> Float { c0 + t * (c1 + c2 * t) }

    /// Directions searched: a 160-point Fibonacci lattice on the sphere, less those more than
    /// `maximumBehind` behind the image plane (camera z > 0.25, about 15°): a light behind the head
    /// barely lights the face, and its few lit samples are better explained by ambient light plus
    /// a light in front (left alone, the search jumped between the two on real video).
    static let maximumBehind: Float = 0.25
    static let lattice: [SIMD3<Float>] = (0..<160).compactMap { i in
        let golden = Float.pi * (3 - Float(5).squareRoot())
        let z = 1 - 2 * (Float(i) + 0.5) / 160
        let r = (1 - z * z).squareRoot()
        let phi = golden * Float(i)
        return z <= maximumBehind ? SIMD3<Float>(r * cosf(phi), r * sinf(phi), z) : nil
    }

    /// Fits the model to `count` samples with unit normals `normals` and linear colours `targets`
    /// (colour over albedo); `keep` masks samples out. `packedNormals` and `packedLuminance` (room
    /// for `count` each) are scratch for the kept samples, so the fit allocates nothing.
    static func fit(normals: UnsafeBufferPointer<SIMD3<Float>>, targets: UnsafeBufferPointer<SIMD3<Float>>,
                    keep: UnsafeBufferPointer<Bool>, count: Int,
                    packedNormals np: UnsafeMutablePointer<SIMD3<Float>>, packedLuminance lp: UnsafeMutablePointer<Float>,
                    moments: inout NormalMoments) -> DominantLightFit? {
        // The kept samples, packed: normals and luminance for the direction search.
        var n = 0
        var sumB = SIMD3<Float>.zero, sumL: Float = 0, sumLL: Float = 0
        for i in 0..<count where keep[i] {
            let l = ColorTemperature.luminance(targets[i])
            np[n] = normals[i]; lp[n] = l
            n += 1
            sumB += targets[i]; sumL += l; sumLL += l * l
        }
        guard n >= 3 else { return nil }
        let count1 = Float(n)
        // Residual of the luminance fit along direction d (smaller is better), from the normals'
        // moments rather than a pass over the samples (`NormalMoments`).
        moments.gather(normals: np, luminance: lp, count: n)
        let m = moments
        func residual(_ d: SIMD3<Float>) -> Float {
            let (sf, sff, sfl) = m.sums(along: d, c0: Double(c0), c1: Double(c1), c2: Double(c2))
            let (a, k) = solve(n: count1, sf: Float(sf), sff: Float(sff), sb: sumL, sfb: Float(sfl))
            return sumLL - a * sumL - k * Float(sfl)
        }
        @inline(__always) func allowed(_ d: SIMD3<Float>) -> Bool { d.z <= maximumBehind }
        // Coarse search, then a local refinement from each of the three best lattice directions
        // (the residual can have a second basin). The three best are kept as a stable sort by
        // residual would order them (ties in lattice order).
        var top = (SIMD3<Float>(repeating: .infinity), SIMD3<Float>.zero, SIMD3<Float>.zero, SIMD3<Float>.zero)
        var found = 0
        for d in lattice {
            let r = residual(d)
            if found == 3 && !(r < top.0[2]) { continue }
            var slot = found < 3 ? found : 2
            while slot > 0 && r < top.0[slot - 1] { slot -= 1 }
            for s in stride(from: min(found, 2), to: slot, by: -1) {
                top.0[s] = top.0[s - 1]
                switch s { case 2: top.3 = top.2; default: top.2 = top.1 }
            }
            top.0[slot] = r
            switch slot { case 0: top.1 = d; case 1: top.2 = d; default: top.3 = d }
            found = min(found + 1, 3)
        }
        var best = top.1, bestR = top.0[0]
        for start in 0..<found {
            var d0 = start == 0 ? top.1 : start == 1 ? top.2 : top.3, r0 = top.0[start]
            var step: Float = 0.15
            for _ in 0..<5 {
                let helper: SIMD3<Float> = abs(d0.x) < 0.9 ? [1, 0, 0] : [0, 1, 0]
                var u = helper - d0 * (helper * d0).sum()
                u /= (u * u).sum().squareRoot()
                let v = SIMD3<Float>(d0.y * u.z - d0.z * u.y, d0.z * u.x - d0.x * u.z, d0.x * u.y - d0.y * u.x)
                var improved = true
                while improved {
                    improved = false
                    for k in 0..<4 {
                        let t = (k < 2 ? u : v) * (k % 2 == 0 ? step : -step)
                        var d = d0 + t
                        d /= (d * d).sum().squareRoot()
                        guard allowed(d) else { continue }
                        let r = residual(d)
                        if r < r0 { r0 = r; d0 = d; improved = true }
                    }
                }
                step *= 0.4
            }
            if r0 < bestR { bestR = r0; best = d0 }
        }
        // Per-channel ambient and intensity along the chosen direction.
        var sf: Float = 0, sff: Float = 0, sfb = SIMD3<Float>.zero
        for i in 0..<count where keep[i] {
            let v = f((normals[i] * best).sum())
            sf += v; sff += v * v; sfb += targets[i] * v
        }
        var ambient = SIMD3<Float>.zero, k = SIMD3<Float>.zero
        for c in 0..<3 {
            let (a, kc) = solve(n: count1, sf: sf, sff: sff, sb: sumB[c], sfb: sfb[c])
            ambient[c] = a; k[c] = kc
        }
        return DominantLightFit(towardsLight: best, ambient: ambient, intensityOverPi: k)
    }

    /// Least squares for a + k f ≈ b with a, k ≥ 0, from the sums over the samples.
    @inline(__always) static func solve(n: Float, sf: Float, sff: Float, sb: Float, sfb: Float) -> (Float, Float) {
        let det = n * sff - sf * sf
        if det > 1e-9 * n * sff {
            let a = (sff * sb - sf * sfb) / det, k = (n * sfb - sf * sb) / det
            if a >= 0 && k >= 0 { return (a, k) }
        }
        // On the boundary: the better of light only and ambient only.
        let kOnly = sff > 0 ? max(0, sfb / sff) : 0
        let aOnly = max(0, sb / n)
        let gainK = kOnly * sfb, gainA = aOnly * sb
        return gainK > gainA ? (0, kOnly) : (aOnly, 0)
    }

    /// The model as radiance spherical harmonics.
    var light: SphericalHarmonicLight {
        SphericalHarmonicLight.directional(towardsLight: towardsLight, color: intensityOverPi * Float.pi, ambient: ambient)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
