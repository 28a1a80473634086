/// How `ImageResizer` computes an output pixel from the source.
public enum ResizeMethod: Sendable, Hashable {
    /// Bilinear interpolation at the output pixel's centre mapped into the source
    /// ((x + 0.5) / s - 0.5 for scale s). Any scale; aliases when shrinking by more than 2x.
    case bilinear
    /// Box-filter average over the source area each output pixel covers (any ratio, including
    /// non-integer ones). The right choice for downscaling; a 2x shrink is the exact 2x2 mean.
    case area
}

/// A separable resampler from one image size to another, with its index and weight tables
/// precomputed so per-frame resizing allocates only a few rows of scratch.
///
/// Both methods honour the pixel-centre convention: output pixel (x, y) corresponds to the source
/// point ((x + 0.5) * sw / tw - 0.5, (y + 0.5) * sh / th - 0.5). Arithmetic is fixed point with
/// weights summing exactly to one, so constant regions stay exactly constant; results are rounded
/// to nearest (ties up). A zero-sized source or target produces an empty target.
public struct ImageResizer: Sendable {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let targetWidth: Int
    public let targetHeight: Int
    public let method: ResizeMethod
    let horizontal: ResamplingTable
    let vertical: ResamplingTable
    let horizontalTwoTaps: Bool

    public init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int, method: ResizeMethod) {
        precondition(sourceWidth >= 0 && sourceHeight >= 0 && targetWidth >= 0 && targetHeight >= 0,
                     "negative image size")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.method = method
        let empty = sourceWidth == 0 || sourceHeight == 0 || targetWidth == 0 || targetHeight == 0
        if empty {
            horizontal = ResamplingTable(first: [], offset: [], count: [], weights: [], maxTaps: 0)
            vertical = horizontal
        } else if method == .bilinear {
            horizontal = ResamplingTable.bilinear(source: sourceWidth, target: targetWidth)
            vertical = ResamplingTable.bilinear(source: sourceHeight, target: targetHeight)
        } else {
            horizontal = ResamplingTable.area(source: sourceWidth, target: targetWidth)
            vertical = ResamplingTable.area(source: sourceHeight, target: targetHeight)
        }
        horizontalTwoTaps = horizontal.allTwoTaps
    }

    var isEmpty: Bool { sourceWidth == 0 || sourceHeight == 0 || targetWidth == 0 || targetHeight == 0 }

    /// Resamples `source` (whose size must be `sourceWidth x sourceHeight`) into `target`, which is
    /// reshaped to the target size (its storage is reused when large enough).
    public func resize(_ source: GrayImageView, into target: inout GrayImage) {
        precondition(source.width == sourceWidth && source.height == sourceHeight,
                     "resizer built for \(sourceWidth)x\(sourceHeight), given \(source.width)x\(source.height)")
        target.reshape(width: targetWidth, height: targetHeight)
        if isEmpty { return }
        let start = source.startIndex, stride = source.rowStride
        source.base.pixels.withUnsafeBufferPointer { src in
            target.pixels.withUnsafeMutableBufferPointer { dst in
                run(channels: 1, dst: dst) { y, row in
                    horizontalGray(src: src, rowStart: start + y * stride, into: row)
                }
            }
        }
    }

    public func resize(_ source: GrayImage, into target: inout GrayImage) {
        resize(source.fullView, into: &target)
    }

    /// RGB version of `resize(_:into:)`; channels are filtered independently.
    public func resize(_ source: RGBImageView, into target: inout RGBImage) {
        precondition(source.width == sourceWidth && source.height == sourceHeight,
                     "resizer built for \(sourceWidth)x\(sourceHeight), given \(source.width)x\(source.height)")
        target.reshape(width: targetWidth, height: targetHeight)
        if isEmpty { return }
        let start = source.startIndex, stride = source.rowStride
        source.base.pixels.withUnsafeBufferPointer { src in
            target.pixels.withUnsafeMutableBufferPointer { dst in
                run(channels: 3, dst: dst) { y, row in
                    horizontalRGB(src: src, rowStart: start + y * stride, into: row)
                }
            }
        }
    }

    public func resize(_ source: RGBImage, into target: inout RGBImage) {
        resize(source.fullView, into: &target)
    }

    // Horizontal results are kept with 8 fractional bits (weights carry 12; 4 are dropped) so the
    // vertical accumulation fits Int32: 255 * 256 * 4096 < 2^31.

    private func horizontalGray(src: UnsafeBufferPointer<UInt8>, rowStart: Int, into row: UnsafeMutableBufferPointer<Int32>) {
        horizontal.first.withUnsafeBufferPointer { first in
        horizontal.offset.withUnsafeBufferPointer { offset in
        horizontal.count.withUnsafeBufferPointer { count in
        horizontal.weights.withUnsafeBufferPointer { w in
            let n = targetWidth
            if horizontalTwoTaps {
                for i in 0 ..< n {
                    let s = rowStart + Int(first[i]), o = Int(offset[i])
                    let acc = w[o] * Int32(src[s]) + w[o + 1] * Int32(src[s + 1])
                    row[i] = (acc + 8) >> 4
                }
            } else {
                for i in 0 ..< n {
                    let s = rowStart + Int(first[i]), o = Int(offset[i]), c = Int(count[i])
                    var acc: Int32 = 0
                    for k in 0 ..< c { acc += w[o + k] * Int32(src[s + k]) }
                    row[i] = (acc + 8) >> 4
                }
            }
        }}}}
    }

    private func horizontalRGB(src: UnsafeBufferPointer<UInt8>, rowStart: Int, into row: UnsafeMutableBufferPointer<Int32>) {
        horizontal.first.withUnsafeBufferPointer { first in
        horizontal.offset.withUnsafeBufferPointer { offset in
        horizontal.count.withUnsafeBufferPointer { count in
        horizontal.weights.withUnsafeBufferPointer { w in
            let n = targetWidth
            if horizontalTwoTaps {
                for i in 0 ..< n {
                    let s = rowStart + 3 * Int(first[i]), o = Int(offset[i])
                    let w0 = w[o], w1 = w[o + 1]
                    row[3 * i] = (w0 * Int32(src[s]) + w1 * Int32(src[s + 3]) + 8) >> 4
                    row[3 * i + 1] = (w0 * Int32(src[s + 1]) + w1 * Int32(src[s + 4]) + 8) >> 4
                    row[3 * i + 2] = (w0 * Int32(src[s + 2]) + w1 * Int32(src[s + 5]) + 8) >> 4
                }
            } else {
                for i in 0 ..< n {
                    let s = rowStart + 3 * Int(first[i]), o = Int(offset[i]), c = Int(count[i])
                    var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
                    for k in 0 ..< c {
                        let wk = w[o + k], p = s + 3 * k
                        r += wk * Int32(src[p]); g += wk * Int32(src[p + 1]); b += wk * Int32(src[p + 2])
                    }
                    row[3 * i] = (r + 8) >> 4; row[3 * i + 1] = (g + 8) >> 4; row[3 * i + 2] = (b + 8) >> 4
                }
            }
        }}}}
    }

    /// The vertical pass. Source rows are filtered horizontally on demand into a ring of
    /// `vertical.maxTaps` rows: the rows an output row needs form a contiguous window that only
    /// moves down, so each source row is filtered at most once.
    private func run(channels: Int, dst: UnsafeMutableBufferPointer<UInt8>,
                     filterRow: (Int, UnsafeMutableBufferPointer<Int32>) -> Void) {
        let rowLength = channels * targetWidth
        let ringSize = vertical.maxTaps
        let ring = UnsafeMutableBufferPointer<Int32>.allocate(capacity: ringSize * rowLength)
        let acc = UnsafeMutableBufferPointer<Int32>.allocate(capacity: rowLength)
        var held = [Int](repeating: -1, count: ringSize)
        defer { ring.deallocate(); acc.deallocate() }
        let rounding: Int32 = 1 << 19
        vertical.first.withUnsafeBufferPointer { first in
        vertical.offset.withUnsafeBufferPointer { offset in
        vertical.count.withUnsafeBufferPointer { count in
        vertical.weights.withUnsafeBufferPointer { w in
            for y in 0 ..< targetHeight {
                let f = Int(first[y]), o = Int(offset[y]), c = Int(count[y])
                var rows: [UnsafeMutableBufferPointer<Int32>] = []
                rows.reserveCapacity(c)
                for k in 0 ..< c {
                    let sy = f + k, slot = sy % ringSize
                    let row = UnsafeMutableBufferPointer(rebasing: ring[slot * rowLength ..< (slot + 1) * rowLength])
                    if held[slot] != sy { filterRow(sy, row); held[slot] = sy }
                    rows.append(row)
                }
                let out = dst.baseAddress! + y * rowLength
                if c == 1 {
                    let r0 = rows[0].baseAddress!, w0 = w[o]
                    for i in 0 ..< rowLength { out[i] = UInt8(truncatingIfNeeded: (w0 * r0[i] + rounding) >> 20) }
                } else if c == 2 {
                    let r0 = rows[0].baseAddress!, r1 = rows[1].baseAddress!, w0 = w[o], w1 = w[o + 1]
                    for i in 0 ..< rowLength {
                        out[i] = UInt8(truncatingIfNeeded: (w0 * r0[i] + w1 * r1[i] + rounding) >> 20)
                    }
                } else {
                    let a = acc.baseAddress!
                    let r0 = rows[0].baseAddress!, w0 = w[o]
                    for i in 0 ..< rowLength { a[i] = w0 * r0[i] + rounding }
                    for k in 1 ..< c {
                        let rk = rows[k].baseAddress!, wk = w[o + k]
                        for i in 0 ..< rowLength { a[i] += wk * rk[i] }
                    }
                    for i in 0 ..< rowLength { out[i] = UInt8(truncatingIfNeeded: a[i] >> 20) }
                }
            }
        }}}}
    }
}

extension GrayImage {
    /// This image resampled to `width x height` (see `ImageResizer` for the conventions).
    public func resized(width: Int, height: Int, method: ResizeMethod) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        ImageResizer(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height,
                     method: method).resize(self, into: &out)
        return out
    }

    /// This image scaled by `scale` (output size rounded to nearest, at least 1 pixel unless the
    /// image is empty). Pixel mapping uses the actual size ratio, which may differ slightly from `scale`.
    public func resized(scale: Float, method: ResizeMethod) -> GrayImage {
        let (w, h) = scaledSize(width: width, height: height, scale: scale)
        return resized(width: w, height: h, method: method)
    }
}

extension GrayImageView {
    /// The viewed region resampled to `width x height`.
    public func resized(width: Int, height: Int, method: ResizeMethod) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        ImageResizer(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height,
                     method: method).resize(self, into: &out)
        return out
    }
}

extension RGBImage {
    /// This image resampled to `width x height` (see `ImageResizer` for the conventions).
    public func resized(width: Int, height: Int, method: ResizeMethod) -> RGBImage {
        var out = RGBImage(width: 0, height: 0)
        ImageResizer(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height,
                     method: method).resize(self, into: &out)
        return out
    }

    /// This image scaled by `scale` (output size rounded to nearest, at least 1 pixel unless empty).
    public func resized(scale: Float, method: ResizeMethod) -> RGBImage {
        let (w, h) = scaledSize(width: width, height: height, scale: scale)
        return resized(width: w, height: h, method: method)
    }
}

extension RGBImageView {
    /// The viewed region resampled to `width x height`.
    public func resized(width: Int, height: Int, method: ResizeMethod) -> RGBImage {
        var out = RGBImage(width: 0, height: 0)
        ImageResizer(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height,
                     method: method).resize(self, into: &out)
        return out
    }
}

func scaledSize(width: Int, height: Int, scale: Float) -> (Int, Int) {
    precondition(scale > 0 && scale.isFinite, "resize scale must be positive and finite, got \(scale)")
    if width == 0 || height == 0 { return (0, 0) }
    return (max(1, Int((Float(width) * scale).rounded())), max(1, Int((Float(height) * scale).rounded())))
}
