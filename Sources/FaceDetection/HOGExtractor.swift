import Foundation
import Imaging

/// Computes `HOGFeatureMap`s (Felzenszwalb et al. 2010, 31-D cell features) from gray images.
///
/// Differences from the reference implementation, chosen for speed and kept identical in training
/// and detection: each pixel's gradient goes to its own cell and its own orientation bin (no bilinear
/// spatial or angular interpolation), gradients at the image border use the clamped neighbour, and
/// border cells are normalised with clamped neighbour blocks, so the map has `floor(w/8) x floor(h/8)`
/// cells (the reference drops the outer ring).
///
/// Keeps scratch buffers between calls: use one extractor per thread.
public final class HOGExtractor {
    private var histogram: [Float] = []
    private var energy: [Float] = []
    private var magnitudeRow: [Float] = []
    private var binRow: [Int32] = []

    public init() {}

    public func compute(_ image: GrayImage) -> HOGFeatureMap {
        var map = HOGFeatureMap()
        compute(image, into: &map)
        return map
    }

    /// Fills `map` (its storage is reused) with the features of `image`.
    ///
    /// `blackBorder`: the caller's promise that the outer `blackBorder` pixels on every side of
    /// `image` are 0 (a padded pyramid level, `HOGPyramid.forEachLevel`). Every gradient there is
    /// exactly 0 except in the ring of pixels next to the picture, so those rows and cells are not
    /// computed: the map is bit for bit the one computed without the promise (a padded 12 Mpixel
    /// photo's levels are 3-50 % border, the small levels most; see `PhotoFaceDetector`).
    public func compute(_ image: GrayImage, into map: inout HOGFeatureMap, blackBorder: Int = 0) {
        let cell = HOGFeatureMap.cellSize
        let w = image.width, h = image.height
        let cx = w / cell, cy = h / cell
        map.cellsX = cx; map.cellsY = cy
        let featureCount = cx * cy * HOGFeatureMap.stride
        if map.values.count != featureCount {
            map.values = [Float](repeating: 0, count: featureCount)
        }
        if cx == 0 || cy == 0 { return }
        accumulateHistograms(image, cellsX: cx, cellsY: cy, blackBorder: max(0, blackBorder))
        normalise(cellsX: cx, cellsY: cy, into: &map.values)
    }

    private func accumulateHistograms(_ image: GrayImage, cellsX cx: Int, cellsY cy: Int, blackBorder b: Int) {
        let cell = HOGFeatureMap.cellSize
        let w = image.width, h = image.height
        let usedW = cx * cell
        // Pixel (x, y) can have a gradient only when it or a neighbour lies inside the picture, off
        // the black border: b - 1 <= x <= w - b and the same for y. The rows and whole cells outside add nothing.
        let yBegin = max(0, b - 1), yEnd = min(cy * cell, h - b + 1)
        let c0 = max(0, b - 1) / cell, c1 = min(cx, (w - b) / cell + 1)
        let xBegin = c0 * cell, xEnd = c1 * cell
        // Two interleaved 18-bin histograms per cell (even / odd pixels): consecutive pixels often
        // fall in the same bin, and one histogram would serialise them through memory.
        let histCount = cx * cy * 36
        if histogram.count < histCount { histogram = [Float](repeating: 0, count: histCount) }
        if magnitudeRow.count < usedW + 8 {
            magnitudeRow = [Float](repeating: 0, count: usedW + 8)
            binRow = [Int32](repeating: 0, count: usedW + 8)
        }
        image.pixels.withUnsafeBufferPointer { px in
        histogram.withUnsafeMutableBufferPointer { hist in
        magnitudeRow.withUnsafeMutableBufferPointer { mags in
        binRow.withUnsafeMutableBufferPointer { bins in
            for i in 0 ..< histCount { hist[i] = 0 }
            let raw = UnsafeRawPointer(px.baseAddress!)
            let one = SIMD8<Int32>(repeating: 1), zero = SIMD8<Int32>(repeating: 0)
            let nine = SIMD8<Int32>(repeating: 9), eighteen = SIMD8<Int32>(repeating: 18)
            let tan10 = SIMD8<Float>(repeating: 0.17632698), tan30 = SIMD8<Float>(repeating: 0.57735027)
            let tan50 = SIMD8<Float>(repeating: 1.19175359), tan70 = SIMD8<Float>(repeating: 2.74747742)
            for y in c1 > c0 ? yBegin ..< max(yBegin, yEnd) : 0 ..< 0 {
                let row = y * w
                let up = (y > 0 ? y - 1 : 0) * w
                let down = (y + 1 < h ? y + 1 : h - 1) * w
                // Interior pixels eight at a time: x - 1 >= 0 and x + 8 <= w - 1.
                let simdBegin = max(1, xBegin)
                var x = simdBegin
                while x + 8 < w && x + 8 <= xEnd {
                    let left = SIMD8<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: row + x - 1, as: SIMD8<UInt8>.self))
                    let right = SIMD8<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: row + x + 1, as: SIMD8<UInt8>.self))
                    let above = SIMD8<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: up + x, as: SIMD8<UInt8>.self))
                    let below = SIMD8<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: down + x, as: SIMD8<UInt8>.self))
                    let dx = right &- left, dy = below &- above
                    let fx = SIMD8<Float>(dx), fy = SIMD8<Float>(dy)
                    let m = (fx * fx + fy * fy).squareRoot()
                    // hogOrientationBins, written out: the compiler keeps it a call otherwise.
                    let ax = fx.replacing(with: -fx, where: fx .< 0), ay = fy.replacing(with: -fy, where: fy .< 0)
                    var q = zero.replacing(with: one, where: ay .> ax * tan10)
                    q &+= zero.replacing(with: one, where: ay .> ax * tan30)
                    q &+= zero.replacing(with: one, where: ay .> ax * tan50)
                    q &+= zero.replacing(with: one, where: ay .> ax * tan70)
                    let negX = fx .< 0, negY = fy .< 0
                    var b = q
                    b.replace(with: nine &- q, where: negX .& .!negY)
                    b.replace(with: nine &+ q, where: negX .& negY)
                    b.replace(with: eighteen &- q, where: .!negX .& negY)
                    b.replace(with: zero, where: b .== eighteen)
                    UnsafeMutableRawPointer(mags.baseAddress! + x).storeBytes(of: m, as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(bins.baseAddress! + x).storeBytes(of: b, as: SIMD8<Int32>.self)
                    x += 8
                }
                // The rest (the first pixel and the right border) one by one, with clamped neighbours.
                @inline(__always) func single(_ xs: Int) {
                    let l = xs > 0 ? xs - 1 : 0
                    let r = xs + 1 < w ? xs + 1 : w - 1
                    let fx = Float(Int32(px[row + r]) - Int32(px[row + l]))
                    let fy = Float(Int32(px[down + xs]) - Int32(px[up + xs]))
                    mags[xs] = (fx * fx + fy * fy).squareRoot()
                    bins[xs] = hogOrientationBins(SIMD8(repeating: fx), SIMD8(repeating: fy))[0]
                }
                for xs in xBegin ..< simdBegin { single(xs) }
                for xs in x ..< xEnd { single(xs) }
                let histRow = (y / cell) * cx * 36
                for c in c0 ..< c1 {
                    let base = histRow + c * 36
                    let x0 = c * cell
                    hist[base + Int(bins[x0])] += mags[x0]
                    hist[base + 18 + Int(bins[x0 + 1])] += mags[x0 + 1]
                    hist[base + Int(bins[x0 + 2])] += mags[x0 + 2]
                    hist[base + 18 + Int(bins[x0 + 3])] += mags[x0 + 3]
                    hist[base + Int(bins[x0 + 4])] += mags[x0 + 4]
                    hist[base + 18 + Int(bins[x0 + 5])] += mags[x0 + 5]
                    hist[base + Int(bins[x0 + 6])] += mags[x0 + 6]
                    hist[base + 18 + Int(bins[x0 + 7])] += mags[x0 + 7]
                }
            }
            // Fold the odd-pixel histograms into the even ones.
            for c in 0 ..< cx * cy {
                for o in 0 ..< 18 { hist[c * 36 + o] += hist[c * 36 + 18 + o] }
            }
        }}}}
    }

    private func normalise(cellsX cx: Int, cellsY cy: Int, into values: inout [Float]) {
        let cells = cx * cy
        if energy.count < cells { energy = [Float](repeating: 0, count: cells) }
        histogram.withUnsafeBufferPointer { hist in
        energy.withUnsafeMutableBufferPointer { norm in
        values.withUnsafeMutableBufferPointer { out in
            for i in 0 ..< cells {
                var s: Float = 0
                let b = i * 36
                for o in 0 ..< 9 {
                    let v = hist[b + o] + hist[b + o + 9]
                    s += v * v
                }
                norm[i] = s
            }
            let eps: Float = 1e-4
            for y in 0 ..< cy {
                let y0 = max(y - 1, 0), y1 = min(y + 1, cy - 1)
                for x in 0 ..< cx {
                    let x0 = max(x - 1, 0), x1 = min(x + 1, cx - 1)
                    let c = norm[y * cx + x]
                    let n00 = norm[y0 * cx + x0], n01 = norm[y0 * cx + x], n02 = norm[y0 * cx + x1]
                    let n10 = norm[y * cx + x0], n12 = norm[y * cx + x1]
                    let n20 = norm[y1 * cx + x0], n21 = norm[y1 * cx + x], n22 = norm[y1 * cx + x1]
                    // The four 2x2 blocks containing this cell: up-left, up-right, down-left, down-right.
                    let k1 = 1 / (n00 + n01 + n10 + c + eps).squareRoot()
                    let k2 = 1 / (n01 + n02 + c + n12 + eps).squareRoot()
                    let k3 = 1 / (n10 + c + n20 + n21 + eps).squareRoot()
                    let k4 = 1 / (c + n12 + n21 + n22 + eps).squareRoot()
                    let hb = (y * cx + x) * 36
                    let ob = (y * cx + x) * HOGFeatureMap.stride
                    var t1: Float = 0, t2: Float = 0, t3: Float = 0, t4: Float = 0
                    for o in 0 ..< 18 {
                        let v = hist[hb + o]
                        let a = min(v * k1, 0.2), b = min(v * k2, 0.2)
                        let d = min(v * k3, 0.2), e = min(v * k4, 0.2)
                        out[ob + o] = 0.5 * (a + b + d + e)
                        t1 += a; t2 += b; t3 += d; t4 += e
                    }
                    for o in 0 ..< 9 {
                        let v = hist[hb + o] + hist[hb + o + 9]
                        let a = min(v * k1, 0.2), b = min(v * k2, 0.2)
                        let d = min(v * k3, 0.2), e = min(v * k4, 0.2)
                        out[ob + 18 + o] = 0.5 * (a + b + d + e)
                    }
                    out[ob + 27] = 0.2357 * t1
                    out[ob + 28] = 0.2357 * t2
                    out[ob + 29] = 0.2357 * t3
                    out[ob + 30] = 0.2357 * t4
                    out[ob + 31] = 0
                }
            }
        }}}
    }
}


/// Signed orientation bin 0..<18 (bin b centred on b·20°, angle measured from +x towards +y)
/// of eight gradients: the direction of largest projection, as in the reference code, found
/// by comparing |dy| against |dx|·tan of the bin boundaries and unfolding the quadrant.
@inline(__always)
func hogOrientationBins(_ dx: SIMD8<Float>, _ dy: SIMD8<Float>) -> SIMD8<Int32> {
    // tan of the bin boundaries 10°, 30°, 50°, 70° (bins are centred on multiples of 20°).
    let tan10: Float = 0.17632698, tan30: Float = 0.57735027, tan50: Float = 1.19175359, tan70: Float = 2.74747742
    let ax = dx.replacing(with: -dx, where: dx .< 0), ay = dy.replacing(with: -dy, where: dy .< 0)
    let one = SIMD8<Int32>(repeating: 1), zero = SIMD8<Int32>(repeating: 0)
    var q = zero.replacing(with: one, where: ay .> ax * tan10)
    q &+= zero.replacing(with: one, where: ay .> ax * tan30)
    q &+= zero.replacing(with: one, where: ay .> ax * tan50)
    q &+= zero.replacing(with: one, where: ay .> ax * tan70)
    // q is the bin of the folded angle in [0°, 90°]; unfold by the signs of dx and dy.
    let negX = dx .< 0, negY = dy .< 0
    let nine = SIMD8<Int32>(repeating: 9), eighteen = SIMD8<Int32>(repeating: 18)
    var b = q
    b.replace(with: nine &- q, where: negX .& .!negY)
    b.replace(with: nine &+ q, where: negX .& negY)
    b.replace(with: eighteen &- q, where: .!negX .& negY)
    // 18 - 0 wraps to bin 0.
    b.replace(with: zero, where: b .== eighteen)
    return b
}
