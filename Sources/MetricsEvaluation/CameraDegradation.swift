import FaceData
import Foundation
import Imaging

/// What a webcam does to a sharp rendering: defocus (Gaussian blur), motion blur along a line, and
/// sensor noise; JPEG compression is the caller's (a codec is an adapter, this module is pure Swift).
///
/// All three act on sRGB bytes directly (no linearisation): the point is to make edges and the
/// limbus as soft and noisy as a real frame, not to model optics exactly.
public struct CameraDegradation: Sendable {
    /// Defocus: Gaussian SD, pixels (0: none).
    public var blurSigmaPx = 0.0
    /// Motion blur: the length of the smear (pixels) and its direction (degrees from the image x axis).
    public var motionLengthPx = 0.0
    public var motionAngleDegrees = 0.0
    /// Sensor noise: Gaussian SD in grey levels, drawn per pixel and channel from `noiseSeed`.
    public var noiseSD = 0.0
    public var noiseSeed: UInt64 = 1

    public init() {}

    public func apply(to image: inout RGBImage) {
        if blurSigmaPx > 0.05 { Self.gaussian(&image, sigma: blurSigmaPx) }
        if motionLengthPx > 0.5 { Self.motion(&image, length: motionLengthPx, angleDegrees: motionAngleDegrees) }
        if noiseSD > 0 { Self.noise(&image, sd: noiseSD, seed: noiseSeed) }
    }

    /// Separable Gaussian, kernel radius 3 SD, edges clamped.
    static func gaussian(_ image: inout RGBImage, sigma: Double) {
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var k = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = k.reduce(0, +)
        k = k.map { $0 / sum }
        let w = image.width, h = image.height
        var src = image.pixels.map(Double.init), dst = src
        for pass in 0..<2 {
            for y in 0..<h {
                for x in 0..<w {
                    var acc = SIMD3<Double>.zero
                    for (i, kv) in k.enumerated() {
                        let o = i - r
                        let xx = pass == 0 ? min(w - 1, max(0, x + o)) : x, yy = pass == 1 ? min(h - 1, max(0, y + o)) : y
                        let j = 3 * (yy * w + xx)
                        acc += kv * SIMD3(src[j], src[j + 1], src[j + 2])
                    }
                    let j = 3 * (y * w + x)
                    dst[j] = acc.x; dst[j + 1] = acc.y; dst[j + 2] = acc.z
                }
            }
            swap(&src, &dst)
        }
        image.pixels = src.map { UInt8(max(0, min(255, $0.rounded()))) }
    }

    /// Box average of bilinear samples along a segment of `length` pixels centred on each pixel: a
    /// head moving at constant speed during the exposure.
    static func motion(_ image: inout RGBImage, length: Double, angleDegrees: Double) {
        let n = max(2, Int(length.rounded(.up)) * 2 + 1)
        let d = SIMD2(cos(angleDegrees * .pi / 180), sin(angleDegrees * .pi / 180)) * length
        let src = image, w = image.width, h = image.height
        func at(_ x: Int, _ y: Int) -> SIMD3<Double> {
            let p = src[min(w - 1, max(0, x)), min(h - 1, max(0, y))]
            return SIMD3(Double(p.r), Double(p.g), Double(p.b))
        }
        for y in 0..<h {
            for x in 0..<w {
                var acc = SIMD3<Double>.zero
                for s in 0..<n {
                    let t = Double(s) / Double(n - 1) - 0.5
                    let px = Double(x) + d.x * t, py = Double(y) + d.y * t
                    let x0 = Int(floor(px)), y0 = Int(floor(py)), fx = px - Double(x0), fy = py - Double(y0)
                    let top: SIMD3<Double> = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                    let bottom: SIMD3<Double> = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                    acc += top * (1 - fy) + bottom * fy
                }
                acc /= Double(n)
                func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
                image[x, y] = (byte(acc.x), byte(acc.y), byte(acc.z))
            }
        }
    }

    /// Additive Gaussian noise (Box–Muller over a SplitMix64 stream).
    static func noise(_ image: inout RGBImage, sd: Double, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for i in image.pixels.indices {
            let v = Double(image.pixels[i]) + sd * rng.gaussian()
            image.pixels[i] = UInt8(max(0, min(255, v.rounded())))
        }
    }
}
