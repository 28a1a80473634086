import Imaging

/// A face-centred copy of an image region, box-filtered down by an integer factor `d` so the face is
/// roughly `referenceSide` pixels across, plus a half-resolution level. Descriptors are sampled from
/// it with bilinear interpolation; the box filter keeps those samples from aliasing on large faces.
///
/// Coordinates: level-0 pixel `i` averages image pixels `x0 + i·d … x0 + i·d + d − 1`, so its centre
/// is image x `x0 + i·d + (d − 1)/2` (pixel-centre convention); level-1 pixel `j` averages level-0
/// pixels `2j, 2j + 1`. Pixels outside the image repeat the nearest edge pixel.
///
/// `update` rewrites a crop in place: its buffers keep their capacity, so a crop reused frame after
/// frame (as `LandmarkCascade.Workspace` does) allocates only when the face grows past its largest size.
public struct FaceCrop: Sendable {
    public private(set) var originX: Int
    public private(set) var originY: Int
    public private(set) var factor: Int
    public private(set) var width: Int
    public private(set) var height: Int
    var level0: [Float]
    var level1: [Float]
    private(set) var width1: Int
    private(set) var height1: Int
    /// Scratch: clamped image columns and rows of the level-0 pixels, one row's column sums.
    private var columns: [Int] = [], rows: [Int] = [], sums: [UInt32] = []

    /// Crops the square centred on `centre` with half-side `halfSide` (image pixels), reduced so that
    /// a face of side `faceSide` becomes about `referenceSide` pixels.
    public init(image: GrayImage, centre: SIMD2<Float>, halfSide: Float, faceSide: Float, referenceSide: Float) {
        self.init()
        update(image: image, centre: centre, halfSide: halfSide, faceSide: faceSide, referenceSide: referenceSide)
    }

    /// An empty crop (no pixels) to be filled by `update`.
    init() {
        originX = 0; originY = 0; factor = 1; width = 0; height = 0
        level0 = []; level1 = []; width1 = 0; height1 = 0
    }

    /// Makes this crop the one `init(image:centre:halfSide:faceSide:referenceSide:)` would make,
    /// reusing its buffers.
    public mutating func update(image: GrayImage, centre: SIMD2<Float>, halfSide: Float, faceSide: Float, referenceSide: Float) {
        let d = max(1, Int((faceSide / referenceSide).rounded()))
        let n = max(4, Int((2 * halfSide / Float(d)).rounded(.up)))
        let x0 = Int((centre.x - halfSide).rounded(.down)), y0 = Int((centre.y - halfSide).rounded(.down))
        originX = x0; originY = y0; factor = d; width = n; height = n
        let iw = image.width, ih = image.height
        Self.resize(&columns, to: n * d, filler: 0)
        Self.resize(&rows, to: n * d, filler: 0)
        Self.resize(&sums, to: n, filler: 0)
        Self.resize(&level0, to: n * n, filler: 0)
        let norm = 1 / Float(d * d)
        columns.withUnsafeMutableBufferPointer { xs in
            rows.withUnsafeMutableBufferPointer { ys in
                for k in 0..<(n * d) { xs[k] = min(max(x0 + k, 0), iw - 1); ys[k] = min(max(y0 + k, 0), ih - 1) }
            }
        }
        image.pixels.withUnsafeBufferPointer { src in
            columns.withUnsafeBufferPointer { xs in
            rows.withUnsafeBufferPointer { ys in
                level0.withUnsafeMutableBufferPointer { dst in
                    sums.withUnsafeMutableBufferPointer { acc in
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
        }
        let n1 = n / 2
        width1 = n1; height1 = n1
        Self.resize(&level1, to: n1 * n1, filler: 0)
        level0.withUnsafeBufferPointer { s in
            level1.withUnsafeMutableBufferPointer { h in
                for j in 0..<n1 {
                    let r0 = 2 * j * n, r1 = r0 + n
                    for i in 0..<n1 {
                        h[j * n1 + i] = 0.25 * (s[r0 + 2 * i] + s[r0 + 2 * i + 1] + s[r1 + 2 * i] + s[r1 + 2 * i + 1])
                    }
                }
            }
        }
    }

    /// Gives `array` exactly `count` elements without giving up its capacity (contents unspecified;
    /// every caller overwrites them).
    private static func resize<T>(_ array: inout [T], to count: Int, filler: T) {
        if array.count > count {
            array.removeLast(array.count - count)
        } else if array.count < count {
            array.append(contentsOf: repeatElement(filler, count: count - array.count))
        }
    }

    /// Image point → level-0 coordinates.
    @inlinable public func level0Point(_ p: SIMD2<Float>) -> SIMD2<Float> {
        let off = Float(factor - 1) / 2
        return SIMD2((p.x - Float(originX) - off) / Float(factor), (p.y - Float(originY) - off) / Float(factor))
    }
}
