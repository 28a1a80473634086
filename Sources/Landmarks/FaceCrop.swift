import Imaging

/// A face-centred copy of an image region, box-filtered down by an integer factor `d` so the face is
/// roughly `referenceSide` pixels across, plus a half-resolution level. Descriptors are sampled from
/// it with bilinear interpolation; the box filter keeps those samples from aliasing on large faces.
///
/// Coordinates: level-0 pixel `i` averages image pixels `x0 + i·d … x0 + i·d + d − 1`, so its centre
/// is image x `x0 + i·d + (d − 1)/2` (pixel-centre convention); level-1 pixel `j` averages level-0
/// pixels `2j, 2j + 1`. Pixels outside the image repeat the nearest edge pixel.
public struct FaceCrop: Sendable {
    public let originX: Int
    public let originY: Int
    public let factor: Int
    public let width: Int
    public let height: Int
    var level0: [Float]
    var level1: [Float]
    let width1: Int
    let height1: Int

    /// Crops the square centred on `centre` with half-side `halfSide` (image pixels), reduced so that
    /// a face of side `faceSide` becomes about `referenceSide` pixels.
    public init(image: GrayImage, centre: SIMD2<Float>, halfSide: Float, faceSide: Float, referenceSide: Float) {
        let d = max(1, Int((faceSide / referenceSide).rounded()))
        let n = max(4, Int((2 * halfSide / Float(d)).rounded(.up)))
        let x0 = Int((centre.x - halfSide).rounded(.down)), y0 = Int((centre.y - halfSide).rounded(.down))
        originX = x0; originY = y0; factor = d; width = n; height = n
        let iw = image.width, ih = image.height
        let xs = (0..<(n * d)).map { min(max(x0 + $0, 0), iw - 1) }
        let ys = (0..<(n * d)).map { min(max(y0 + $0, 0), ih - 1) }
        var out = [Float](repeating: 0, count: n * n)
        let norm = 1 / Float(d * d)
        image.pixels.withUnsafeBufferPointer { src in
            xs.withUnsafeBufferPointer { xs in
                out.withUnsafeMutableBufferPointer { dst in
                    var acc = [UInt32](repeating: 0, count: n)
                    acc.withUnsafeMutableBufferPointer { acc in
                        for j in 0..<n {
                            for i in 0..<n { acc[i] = 0 }
                            for dy in 0..<d {
                                let row = ys[j * d + dy] * iw
                                if d == 1 {
                                    for i in 0..<n { acc[i] &+= UInt32(src[row + xs[i]]) }
                                } else {
                                    for i in 0..<n {
                                        var s: UInt32 = 0
                                        let base = i * d
                                        for dx in 0..<d { s &+= UInt32(src[row + xs[base + dx]]) }
                                        acc[i] &+= s
                                    }
                                }
                            }
                            for i in 0..<n { dst[j * n + i] = Float(acc[i]) * norm }
                        }
                    }
                }
            }
        }
        level0 = out
        let n1 = n / 2
        width1 = n1; height1 = n1
        var half = [Float](repeating: 0, count: n1 * n1)
        out.withUnsafeBufferPointer { s in
            half.withUnsafeMutableBufferPointer { h in
                for j in 0..<n1 {
                    let r0 = 2 * j * n, r1 = r0 + n
                    for i in 0..<n1 {
                        h[j * n1 + i] = 0.25 * (s[r0 + 2 * i] + s[r0 + 2 * i + 1] + s[r1 + 2 * i] + s[r1 + 2 * i + 1])
                    }
                }
            }
        }
        level1 = half
    }

    /// Image point → level-0 coordinates.
    @inlinable public func level0Point(_ p: SIMD2<Float>) -> SIMD2<Float> {
        let off = Float(factor - 1) / 2
        return SIMD2((p.x - Float(originX) - off) / Float(factor), (p.y - Float(originY) - off) / Float(factor))
    }
}
