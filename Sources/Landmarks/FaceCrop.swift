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
    /// Scratch: clamped image columns and rows of the level-0 pixels; one crop row's source rows
    /// summed, byte by byte (channels interleaved as in the image).
    private var columns: [Int] = [], rows: [Int] = [], rowSums: [UInt16] = []

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
        update(image: .gray(image), centre: centre, halfSide: halfSide, faceSide: faceSide, referenceSide: referenceSide)
    }

    /// `update` on a gray or RGB frame. From RGB, each level-0 pixel is the BT.601 luma of the box's
    /// summed colour: the luma of the box's mean, where a crop of the converted gray image would
    /// average luma rounded pixel by pixel (the two differ by less than half a level).
    public mutating func update(image: LumaFrame, centre: SIMD2<Float>, halfSide: Float, faceSide: Float, referenceSide: Float) {
        let (x0, y0, d, n) = Self.layout(centre: centre, halfSide: halfSide, faceSide: faceSide, referenceSide: referenceSide)
        originX = x0; originY = y0; factor = d; width = n; height = n
        let iw = image.width, ih = image.height
        columns.resize(to: n * d, filler: 0)
        rows.resize(to: n * d, filler: 0)
        level0.resize(to: n * n, filler: 0)
        columns.withUnsafeMutableBufferPointer { xs in
            rows.withUnsafeMutableBufferPointer { ys in
                for k in 0..<(n * d) { xs[k] = min(max(x0 + k, 0), iw - 1); ys[k] = min(max(y0 + k, 0), ih - 1) }
            }
        }
        // Box filter, rows first: the d source rows of a crop row are summed as whole runs of bytes
        // (contiguous, so vectorised, and with RGB no per-pixel luma), then each crop pixel sums d
        // entries of that run. Clamped columns come from `columns`, so the edge repeats as it should.
        let first = columns[0], last = columns[n * d - 1]
        let channels: Int
        switch image {
        case .gray: channels = 1
        case .rgb: channels = 3
        }
        let span = channels * (last - first + 1)
        rowSums.resize(to: span, filler: 0)
        let norm = 1 / Float(d * d)
        let wr = Float(19595) / 65536 * norm, wg = Float(38470) / 65536 * norm, wb = Float(7471) / 65536 * norm
        let inside = x0 >= 0 && x0 + n * d <= iw
        @inline(__always) func filter(_ src: UnsafeBufferPointer<UInt8>) {
            columns.withUnsafeBufferPointer { xs in
            rows.withUnsafeBufferPointer { ys in
            level0.withUnsafeMutableBufferPointer { dst in
            rowSums.withUnsafeMutableBufferPointer { acc in
                let a = acc.baseAddress!
                for j in 0..<n {
                    Self.sumRows(src.baseAddress!, rowStride: channels * iw, offset: channels * first, rows: ys, from: j * d, count: d,
                                 into: a, span: span)
                    if channels == 1 {
                        for i in 0..<n {
                            var s: UInt32 = 0
                            let base = i * d
                            for k in 0..<d { s &+= UInt32(a[xs[base + k] - first]) }
                            dst[j * n + i] = Float(s) * norm
                        }
                    } else if inside && d <= 16 {
                        // No clamped column: crop pixel i sums the run's entries 3·d·i ..< 3·d·(i + 1).
                        // First every position's sum over d pixels of its channel, in place and
                        // sixteen at a time (at most 255·16·16, so UInt16 holds it): then a crop pixel
                        // is three reads, and the same integer sums as adding its entries one by one.
                        Self.sumPixels(a, span: span, count: d)
                        var o = 0
                        for i in 0..<n {
                            dst[j * n + i] = Float(UInt32(a[o])) * wr + Float(UInt32(a[o + 1])) * wg + Float(UInt32(a[o + 2])) * wb
                            o += 3 * d
                        }
                    } else if inside {
                        var o = 0
                        for i in 0..<n {
                            var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                            for _ in 0..<d {
                                r &+= UInt32(a[o]); g &+= UInt32(a[o + 1]); b &+= UInt32(a[o + 2])
                                o += 3
                            }
                            dst[j * n + i] = Float(r) * wr + Float(g) * wg + Float(b) * wb
                        }
                    } else {
                        for i in 0..<n {
                            var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                            let base = i * d
                            for k in 0..<d {
                                let o = 3 * (xs[base + k] - first)
                                r &+= UInt32(a[o]); g &+= UInt32(a[o + 1]); b &+= UInt32(a[o + 2])
                            }
                            dst[j * n + i] = Float(r) * wr + Float(g) * wg + Float(b) * wb
                        }
                    }
                }
            }
            }
            }
            }
        }
        switch image {
        case .gray(let g): g.pixels.withUnsafeBufferPointer(filter)
        case .rgb(let c): c.pixels.withUnsafeBufferPointer(filter)
        }
        let n1 = n / 2
        width1 = n1; height1 = n1
        level1.resize(to: n1 * n1, filler: 0)
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

    /// Where a crop reads: image columns `x0 ..< x0 + n·d` and rows `y0 ..< y0 + n·d` (before clamping to
    /// the image), box factor `d`, `n` level-0 pixels a side. One formula for `update` and `sourceRect`.
    @inline(__always)
    static func layout(centre: SIMD2<Float>, halfSide: Float, faceSide: Float, referenceSide: Float) -> (x0: Int, y0: Int, d: Int, n: Int) {
        let d = max(1, Int((faceSide / referenceSide).rounded()))
        let n = max(4, Int((2 * halfSide / Float(d)).rounded(.up)))
        return (Int((centre.x - halfSide).rounded(.down)), Int((centre.y - halfSide).rounded(.down)), d, n)
    }

    /// The image pixels `update` with these arguments reads (not clamped to the image).
    public static func sourceRect(centre: SIMD2<Float>, halfSide: Float, faceSide: Float, referenceSide: Float) -> PixelRect {
        let (x0, y0, d, n) = layout(centre: centre, halfSide: halfSide, faceSide: faceSide, referenceSide: referenceSide)
        return PixelRect(x: x0, y: y0, width: n * d, height: n * d)
    }

    /// `into[0 ..< span]` = the sum of the byte runs `span` long starting at `offset` in source rows
    /// `rows[from ..< from + count]` (32 bytes at a time in two 16-lane sums, then 16, then one). At
    /// most 257 rows, so UInt16 cannot overflow. (One `SIMD32<UInt16>` sum was kept on the stack in
    /// the engine's build, a store and a reload per row, and made the crop slower; SIMD64 fell off
    /// the vector path altogether and was a hundred times slower.)
    @inline(__always)
    private static func sumRows(_ src: UnsafePointer<UInt8>, rowStride: Int, offset: Int, rows ys: UnsafeBufferPointer<Int>,
                                from: Int, count: Int, into acc: UnsafeMutablePointer<UInt16>, span: Int) {
        let whole = span / 16 * 16
        let out = UnsafeMutableRawPointer(acc)
        let base = UnsafeRawPointer(src + offset)
        // Column chunk by column chunk, the rows summed in a register: one store per chunk, and the d
        // rows read side by side (d streams the prefetcher follows), not one after the other.
        var k = 0
        while k + 32 <= span {
            var sum0 = SIMD16<UInt16>(), sum1 = SIMD16<UInt16>()
            for r in from..<(from + count) {
                let o = ys[r] * rowStride + k
                sum0 &+= SIMD16<UInt16>(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self))
                sum1 &+= SIMD16<UInt16>(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: o + 16, as: SIMD16<UInt8>.self))
            }
            out.storeBytes(of: sum0, toByteOffset: 2 * k, as: SIMD16<UInt16>.self)
            out.storeBytes(of: sum1, toByteOffset: 2 * k + 32, as: SIMD16<UInt16>.self)
            k += 32
        }
        while k < whole {
            var sum = SIMD16<UInt16>()
            for r in from..<(from + count) {
                sum &+= SIMD16<UInt16>(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: ys[r] * rowStride + k, as: SIMD16<UInt8>.self))
            }
            out.storeBytes(of: sum, toByteOffset: 2 * k, as: SIMD16<UInt16>.self)
            k += 16
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        while k < span {
            var sum: UInt16 = 0
            for r in from..<(from + count) { sum &+= UInt16(bytes[ys[r] * rowStride + k]) }
            acc[k] = sum
            k += 1
        }
    }

    /// `run[k] = Σ run[k + 3·m]` for m in 0 ..< count (interleaved RGB: the sum of `count` pixels of
    /// one channel from position k), in place, for every k with k + 3·(count − 1) < span; later
    /// positions are left partly summed. Left to right, so each read is of an entry not yet replaced
    /// (32 entries at a time as two 16-lane sums, then 16: a chunk reads up to 3·(count − 1) past
    /// itself, never into entries already replaced).
    @inline(__always)
    private static func sumPixels(_ run: UnsafeMutablePointer<UInt16>, span: Int, count d: Int) {
        guard d > 1 else { return }
        let reach = 3 * (d - 1)
        let raw = UnsafeMutableRawPointer(run)
        var k = 0
        while k + 32 + reach <= span {
            var sum0 = raw.loadUnaligned(fromByteOffset: 2 * k, as: SIMD16<UInt16>.self)
            var sum1 = raw.loadUnaligned(fromByteOffset: 2 * k + 32, as: SIMD16<UInt16>.self)
            for m in 1..<d {
                sum0 &+= raw.loadUnaligned(fromByteOffset: 2 * (k + 3 * m), as: SIMD16<UInt16>.self)
                sum1 &+= raw.loadUnaligned(fromByteOffset: 2 * (k + 3 * m) + 32, as: SIMD16<UInt16>.self)
            }
            raw.storeBytes(of: sum0, toByteOffset: 2 * k, as: SIMD16<UInt16>.self)
            raw.storeBytes(of: sum1, toByteOffset: 2 * k + 32, as: SIMD16<UInt16>.self)
            k += 32
        }
        while k + 16 + reach <= span {
            var sum = raw.loadUnaligned(fromByteOffset: 2 * k, as: SIMD16<UInt16>.self)
            for m in 1..<d { sum &+= raw.loadUnaligned(fromByteOffset: 2 * (k + 3 * m), as: SIMD16<UInt16>.self) }
            raw.storeBytes(of: sum, toByteOffset: 2 * k, as: SIMD16<UInt16>.self)
            k += 16
        }
        while k + reach < span {
            var sum = run[k]
            for m in 1..<d { sum &+= run[k + 3 * m] }
            run[k] = sum
            k += 1
        }
    }

    /// Level-0 pixels, row-major (`width` x `height`).
    public var level0Pixels: [Float] { level0 }
    /// Level-1 pixels, row-major (`width / 2` x `height / 2`).
    public var level1Pixels: [Float] { level1 }

    /// Image point → level-0 coordinates.
    @inlinable public func level0Point(_ p: SIMD2<Float>) -> SIMD2<Float> {
        let off = Float(factor - 1) / 2
        return SIMD2((p.x - Float(originX) - off) / Float(factor), (p.y - Float(originY) - off) / Float(factor))
    }
}
