import Imaging
import Foundation

/// sRGB transfer functions (IEC 61966-2-1) as tables: shading and blending happen in linear light,
/// frames are stored sRGB-encoded. Encoding uses 4096 linear steps, finer than 8-bit output needs.
enum ColorTables {
    static let toLinear: [Float] = (0..<256).map { SRGB.decode(code: UInt8($0)) }

    static let encodeSteps = 4095
    static let toSRGB: [UInt8] = (0...encodeSteps).map { i in
        let s = SRGB.encode(Double(i) / Double(encodeSteps))
        return UInt8(max(0, min(255, (s * 255).rounded())))
    }

    /// Fast approximation of sRGB decoding for filtered texel values (0...255), within 0.003 of exact.
    @inline(__always) static func approximateLinear(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let c = v * (1 / 255 as Float)
        return c * (c * (c * 0.305306011 + 0.682171111) + 0.012522878)
    }
}
