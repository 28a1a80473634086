import Imaging

/// Deterministic test pictures with structure at several scales (gradients, edges, a disc),
/// so codec errors show up in PSNR rather than hiding in flat areas.
enum TestImages {
    static func scene(width: Int, height: Int, phase: Int = 0) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Float(x) / Float(max(1, width - 1)), fy = Float(y) / Float(max(1, height - 1))
                var r = UInt8(255 * fx), g = UInt8(255 * fy), b = UInt8(128 + 100 * sin(Float(x + phase) * 0.05) * cos(Float(y) * 0.07))
                let dx = x - width / 2, dy = y - height / 2
                if dx * dx + dy * dy < (min(width, height) / 4) * (min(width, height) / 4) { r = 240; g = 200; b = 160 }
                if (x / 16 + y / 16) % 7 == 0 { r = 20; g = 20; b = 20 }
                image[x, y] = (r, g, b)
            }
        }
        return image
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var se = 0.0
        for i in 0..<a.count { let d = Double(a[i]) - Double(b[i]); se += d * d }
        let mse = se / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

#if canImport(Glibc)
import Glibc
#endif
