import Imaging

/// The sRGB decoding curve (IEC 61966-2-1) as a 256-entry table: the estimator fits light in
/// linear RGB, and camera frames arrive sRGB-encoded.
enum SRGBDecoding {
    static let table: [Float] = (0..<256).map { SRGB.decode(code: UInt8($0)) }

    static func linear(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD3<Float> {
        SIMD3<Float>(table[Int(r)], table[Int(g)], table[Int(b)])
    }
}
