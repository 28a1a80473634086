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
/// point ((x + 0.5) * sw / tw - 0.5, (y + 0.5) * sh / th - 0.5). Weights are quantised to 1/4096
/// and sum exactly to one, so constant regions stay exactly constant; results are rounded to
/// nearest (ties up). A zero-sized source or target produces an empty target.
public struct ImageResizer: Sendable {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let targetWidth: Int
    public let targetHeight: Int
    public let method: ResizeMethod
    let horizontal: ResamplingTable
    let vertical: ResamplingTable
    /// Taps of every output of `horizontal` (the table is made uniform).
    let horizontalTaps: Int
    /// The tables' weights as Floats (w / 4096, exact).
    let horizontalWeights: [Float]
    let verticalWeights: [Float]

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
            horizontal = ResamplingTable.bilinear(source: sourceWidth, target: targetWidth).uniform(source: sourceWidth)
            vertical = ResamplingTable.bilinear(source: sourceHeight, target: targetHeight)
        } else {
            horizontal = ResamplingTable.area(source: sourceWidth, target: targetWidth).uniform(source: sourceWidth)
            vertical = ResamplingTable.area(source: sourceHeight, target: targetHeight)
        }
        horizontalTaps = horizontal.maxTaps
        let unit = 1 / Float(ResamplingTable.one)
        horizontalWeights = horizontal.weights.map { Float($0) * unit }
        verticalWeights = vertical.weights.map { Float($0) * unit }
    }

    var isEmpty: Bool { sourceWidth == 0 || sourceHeight == 0 || targetWidth == 0 || targetHeight == 0 }

    /// Resamples `source` (whose size must be `sourceWidth x sourceHeight`) into `target`, which is
    /// reshaped to the target size (its storage is reused when large enough). RGB channels are
    /// filtered independently.
    public func resize<Image: PackedImage>(_ source: ImageView<Image>, into target: inout Image) {
        precondition(source.width == sourceWidth && source.height == sourceHeight,
                     "resizer built for \(sourceWidth)x\(sourceHeight), given \(source.width)x\(source.height)")
        target.reshape(width: targetWidth, height: targetHeight)
        resample(source.base.pixels, start: source.startIndex, stride: source.rowStride, channels: Image.channels, into: &target.pixels)
    }

    public func resize<Image: PackedImage>(_ source: Image, into target: inout Image) {
        resize(source.fullView, into: &target)
    }

    /// Both passes over rows `stride` apart from `start` in `pixels` (1 channel: gray, 3: RGB),
    /// into `target`, already reshaped to the target size.
    private func resample(_ pixels: [UInt8], start: Int, stride: Int, channels: Int, into target: inout [UInt8]) {
        if isEmpty { return }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: channels * sourceWidth)
        defer { scratch.deallocate() }
        pixels.withUnsafeBufferPointer { src in
            target.withUnsafeMutableBufferPointer { dst in
                run(channels: channels, dst: dst) { y, row in
                    if channels == 1 {
                        horizontalGray(pixels: src, rowStart: start + y * stride, scratch: scratch, into: row)
                    } else {
                        horizontalRGB(pixels: src, rowStart: start + y * stride, scratch: scratch, into: row)
                    }
                }
            }
        }
    }

    // Arithmetic is Float, which the baseline x86-64 target vectorises well (SSE2 lacks a packed
    // 32-bit integer multiply; the Int32 version measured about 2x slower). It stays exact where it matters: weights are multiples of 2^-12 and
    // pixels 8-bit integers, so each horizontal product and sum is exact in 24 bits; in the
    // vertical pass a constant image and power-of-two means are also exact, and elsewhere the
    // rounding error (~2^-16 of a level) can only move an exact .5 tie.

    private func horizontalGray(pixels: UnsafeBufferPointer<UInt8>, rowStart: Int, scratch src: UnsafeMutablePointer<Float>,
                                into row: UnsafeMutablePointer<Float>) {
        // Each source pixel is converted to Float once (a vectorised pass), not once per tap.
        let source = pixels.baseAddress! + rowStart
        for j in 0 ..< sourceWidth { src[j] = Float(source[j]) }
        horizontal.first.withUnsafeBufferPointer { first in
        horizontalWeights.withUnsafeBufferPointer { w in
            let n = targetWidth, taps = horizontalTaps
            switch taps {
            case 1:
                for i in 0 ..< n { row[i] = w[i] * src[Int(first[i])] }
            case 2:
                for i in 0 ..< n {
                    let s = Int(first[i]), o = 2 * i
                    row[i] = w[o] * src[s] + w[o + 1] * src[s + 1]
                }
            case 3:
                for i in 0 ..< n {
                    let s = Int(first[i]), o = 3 * i
                    row[i] = w[o] * src[s] + w[o + 1] * src[s + 1] + w[o + 2] * src[s + 2]
                }
            default:
                for i in 0 ..< n {
                    let s = Int(first[i]), o = taps * i
                    var acc: Float = 0
                    for k in 0 ..< taps { acc += w[o + k] * src[s + k] }
                    row[i] = acc
                }
            }
        }}
    }

    private func horizontalRGB(pixels: UnsafeBufferPointer<UInt8>, rowStart: Int, scratch src: UnsafeMutablePointer<Float>,
                               into row: UnsafeMutablePointer<Float>) {
        let source = pixels.baseAddress! + rowStart
        for j in 0 ..< 3 * sourceWidth { src[j] = Float(source[j]) }
        horizontal.first.withUnsafeBufferPointer { first in
        horizontalWeights.withUnsafeBufferPointer { w in
            let n = targetWidth, taps = horizontalTaps
            if taps == 2 {
                for i in 0 ..< n {
                    let s = 3 * Int(first[i]), o = 2 * i
                    let w0 = w[o], w1 = w[o + 1]
                    row[3 * i] = w0 * src[s] + w1 * src[s + 3]
                    row[3 * i + 1] = w0 * src[s + 1] + w1 * src[s + 4]
                    row[3 * i + 2] = w0 * src[s + 2] + w1 * src[s + 5]
                }
            } else if taps == 3 {
                for i in 0 ..< n {
                    let s = 3 * Int(first[i]), o = 3 * i
                    let w0 = w[o], w1 = w[o + 1], w2 = w[o + 2]
                    row[3 * i] = w0 * src[s] + w1 * src[s + 3] + w2 * src[s + 6]
                    row[3 * i + 1] = w0 * src[s + 1] + w1 * src[s + 4] + w2 * src[s + 7]
                    row[3 * i + 2] = w0 * src[s + 2] + w1 * src[s + 5] + w2 * src[s + 8]
                }
            } else {
                for i in 0 ..< n {
                    let s = 3 * Int(first[i]), o = taps * i
                    var r: Float = 0, g: Float = 0, b: Float = 0
                    for k in 0 ..< taps {
                        let wk = w[o + k], p = s + 3 * k
                        r += wk * src[p]; g += wk * src[p + 1]; b += wk * src[p + 2]
                    }
                    row[3 * i] = r; row[3 * i + 1] = g; row[3 * i + 2] = b
                }
            }
        }}
    }

    /// The vertical pass. Source rows are filtered horizontally on demand into a ring of
    /// `vertical.maxTaps` rows: the rows an output row needs form a contiguous window that only
    /// moves down, so each source row is filtered at most once.
    private func run(channels: Int, dst: UnsafeMutableBufferPointer<UInt8>,
                     filterRow: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let rowLength = channels * targetWidth
        let ringSize = vertical.maxTaps
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringSize * rowLength)
        let acc = UnsafeMutablePointer<Float>.allocate(capacity: rowLength)
        var held = [Int](repeating: -1, count: ringSize)
        defer { ring.deallocate(); acc.deallocate() }
        vertical.first.withUnsafeBufferPointer { first in
        vertical.offset.withUnsafeBufferPointer { offset in
        vertical.count.withUnsafeBufferPointer { count in
        verticalWeights.withUnsafeBufferPointer { w in
            @inline(__always) func sourceRow(_ sy: Int) -> UnsafeMutablePointer<Float> {
                let slot = sy % ringSize
                let row = ring + slot * rowLength
                if held[slot] != sy { filterRow(sy, row); held[slot] = sy }
                return row
            }
            for y in 0 ..< targetHeight {
                let f = Int(first[y]), o = Int(offset[y]), c = Int(count[y])
                let out = dst.baseAddress! + y * rowLength
                if c == 1 {
                    let r0 = sourceRow(f)
                    for i in 0 ..< rowLength { out[i] = UInt8(truncatingIfNeeded: Int32(r0[i] + 0.5)) }
                } else if c == 2 {
                    let r0 = sourceRow(f), r1 = sourceRow(f + 1), w0 = w[o], w1 = w[o + 1]
                    for i in 0 ..< rowLength {
                        out[i] = UInt8(truncatingIfNeeded: Int32(w0 * r0[i] + w1 * r1[i] + 0.5))
                    }
                } else {
                    let r0 = sourceRow(f), w0 = w[o]
                    for i in 0 ..< rowLength { acc[i] = w0 * r0[i] + 0.5 }
                    for k in 1 ..< c {
                        let rk = sourceRow(f + k), wk = w[o + k]
                        for i in 0 ..< rowLength { acc[i] += wk * rk[i] }
                    }
                    for i in 0 ..< rowLength { out[i] = UInt8(truncatingIfNeeded: Int32(acc[i])) }
                }
            }
        }}}}
    }
}

extension ImageView {
    /// The viewed region resampled to `width x height` (see `ImageResizer` for the conventions).
    public func resized(width: Int, height: Int, method: ResizeMethod) -> Image {
        var out = Image(width: 0, height: 0)
        ImageResizer(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height,
                     method: method).resize(self, into: &out)
        return out
    }

    /// The viewed region scaled by `scale` (output size rounded to nearest, at least 1 pixel unless
    /// it is empty). Pixel mapping uses the actual size ratio, which may differ slightly from `scale`.
    public func resized(scale: Float, method: ResizeMethod) -> Image {
        let (w, h) = scaledSize(width: width, height: height, scale: scale)
        return resized(width: w, height: h, method: method)
    }
}

extension PackedImage {
    /// This image resampled to `width x height` (see `ImageResizer` for the conventions).
    public func resized(width: Int, height: Int, method: ResizeMethod) -> Self {
        fullView.resized(width: width, height: height, method: method)
    }

    /// This image scaled by `scale` (see `ImageView.resized(scale:method:)`).
    public func resized(scale: Float, method: ResizeMethod) -> Self {
        fullView.resized(scale: scale, method: method)
    }
}

func scaledSize(width: Int, height: Int, scale: Float) -> (Int, Int) {
    precondition(scale > 0 && scale.isFinite, "resize scale must be positive and finite, got \(scale)")
    if width == 0 || height == 0 { return (0, 0) }
    return (max(1, Int((Float(width) * scale).rounded())), max(1, Int((Float(height) * scale).rounded())))
}
