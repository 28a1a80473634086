#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sRGB transfer function (IEC 61966-2-1), the one definition every stage uses: shading, blending
/// and light estimation happen in linear light, frames and colour files are sRGB-encoded. Computed in
/// double precision; callers that need speed build tables from it (`Rendering`, `LightEstimation`).
public enum SRGB {
    /// sRGB-encoded value (0...1) to linear light (0...1).
    @inlinable public static func decode(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light (0...1) to the sRGB-encoded value (0...1).
    @inlinable public static func encode(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    @inlinable public static func decode(_ c: Float) -> Float { Float(decode(Double(c))) }
    @inlinable public static func encode(_ linear: Float) -> Float { Float(encode(Double(linear))) }

    /// An 8-bit sRGB code (0...255) in linear light.
    @inlinable public static func decode(code: UInt8) -> Float { Float(decode(Double(code) / 255)) }
}
