import Imaging
import Foundation

/// sRGB colours written as "#rrggbb" in the catalogue, converted to the linear RGB that
/// `Material.baseColor` holds (IEC 61966-2-1 transfer function).
public enum ColorHex {
    public static func linear(_ hex: String) -> SIMD3<Float>? {
        var s = hex
        if s.hasPrefix("#") { s.removeFirst() }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        func channel(_ shift: UInt32) -> Float {
            SRGB.decode(code: UInt8((v >> shift) & 0xFF))
        }
        return SIMD3<Float>(channel(16), channel(8), channel(0))
    }
}
