/// The sRGB decoding curve (IEC 61966-2-1) as a 256-entry table: the estimator fits light in
/// linear RGB, and camera frames arrive sRGB-encoded.
enum SRGBDecoding {
    static let table: [Float] = (0..<256).map { i in
        let c = Double(i) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    static func linear(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD3<Float> {
        SIMD3<Float>(table[Int(r)], table[Int(g)], table[Int(b)])
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
