import Imaging

/// What the eyeglasses classifier sees of a face: gradient-orientation energy (HOG-like cells), line
/// profiles and rim-scale line segments over the band of the face that glasses cover, read in the
/// face's own frame from the 68 landmarks.
///
/// Frame: origin midway between the two eye-contour centres (means of points 36-41 and 42-47),
/// x along the line from the image-left eye to the image-right eye, y perpendicular to it (down in
/// an upright face), unit the distance between the eye centres (`io`). The band spans x ∈ [−1.3, 1.3] io
/// (the temples beside the outer corners 36 and 45 and the rims' outer edges) and y ∈ [−0.6, 0.6] io
/// (brows to cheeks: the top bar and the lower rims; the bridge over 27-28 lies at y ≈ 0 between the
/// eyes), so roll and scale drop out. The band is read at twice `gridWidth` x `gridHeight` (one
/// bilinear read per fine sample); each coarse sample is the mean of its 2x2 fine ones (reads a quarter
/// step apart), so a 2 px rim on a face of io 100 px (a coarse step of 4 px) is not missed between them.
///
/// Per cell of `cellSize` x `cellSize` samples: gradient magnitude (central differences) in
/// `orientations` unsigned orientation bins (0°: a vertical edge, 90°: a horizontal one, such as a
/// rim's top or bottom bar), divided by the band's mean magnitude (contrast and exposure drop out), then
/// square-rooted (Hellinger: a few strong edges do not swamp the rest); the same block-normalised; line
/// profiles (below); on the fine grid, the strongest horizontal and vertical line segment per cell
/// (`fillSegments`); then a constant 1 (the bias).
/// `values(_:landmarks:mirrored:)` can read the band mirrored left-right (training augmentation).
///
/// Cost: 128 x 96 bilinear reads, a pass of gradients on each grid, the profiles and the segments
/// (MetricsBenchmarks, Models/README.md); no allocation after the first call.
public struct EyeglassesFeatures: Sendable {
    public static let gridWidth = 64
    public static let gridHeight = 48
    public static let cellSize = 8
    /// Fixed at 4 (the binning below compares with tan 22.5°).
    public static let orientations = 4
    public static let halfWidthIO: Float = 1.3
    public static let halfHeightIO: Float = 0.6
    public static let cellColumns = gridWidth / cellSize
    public static let cellRows = gridHeight / cellSize
    /// Columns of the five zones of the horizontal line profiles: temple, eye, bridge, eye, temple
    /// (x < −1.0, −1.0…−0.33, ±0.33, 0.33…1.0, > 1.0 io).
    static let rowZones: [Range<Int>] = [0..<8, 8..<24, 24..<40, 40..<56, 56..<64]
    /// Rows of the vertical line profiles: y within ±0.45 io (brows excluded).
    static let columnZone = 6..<42
    /// Two histogram copies (band- and block-normalised), the line profiles, the fine line segments
    /// (horizontal and vertical per cell) and the constant.
    public static let count = 2 * cellColumns * cellRows * orientations + rowZones.count * gridHeight + gridWidth + 2 * cellColumns * cellRows + 1
    /// Names the layout in model files: a model trained on another layout is refused.
    public static let spec = "hog2-lines-segments-band-\(gridWidth)x\(gridHeight)-cell\(cellSize)-o\(orientations)-w\(halfWidthIO)-h\(halfHeightIO)"

    private var samples = [Float](repeating: 0, count: gridWidth * gridHeight)
    /// The band at twice the resolution, one bilinear read per sample (`fillSegments`).
    private var fine = [Float](repeating: 0, count: 4 * gridWidth * gridHeight)
    private var rowSums = [Float](repeating: 0, count: 2 * gridHeight * cellColumns)
    private var columnSums = [Float](repeating: 0, count: 2 * gridWidth * cellRows)

    public init() {}

    /// The feature vector (`count` values, last = 1), or nil when the landmarks are degenerate
    /// (fewer than 68 points or the eyes closer than 4 px).
    public mutating func values(_ image: GrayImage, landmarks: [SIMD2<Float>], mirrored: Bool = false) -> [Float]? {
        var out = [Float](repeating: 0, count: Self.count)
        return fill(&out, image, landmarks: landmarks, mirrored: mirrored) ? out : nil
    }

    /// Writes the features into `out` (`count` values); false when the landmarks are degenerate.
    public mutating func fill(_ out: inout [Float], _ image: GrayImage, landmarks: [SIMD2<Float>], mirrored: Bool = false) -> Bool {
        precondition(out.count == Self.count)
        guard landmarks.count >= 68, image.width > 1, image.height > 1 else { return false }
        var left = SIMD2<Float>(), right = SIMD2<Float>()
        for i in 36..<42 { left += landmarks[i] }
        for i in 42..<48 { right += landmarks[i] }
        left /= 6; right /= 6
        let axis = right - left
        let io = (axis * axis).sum().squareRoot()
        guard io >= 4, io.isFinite else { return false }
        let ex = axis / io, ey = SIMD2<Float>(-ex.y, ex.x), origin = (left + right) / 2
        let W = Self.gridWidth, H = Self.gridHeight, FW = 2 * W, FH = 2 * H
        let stepX = 2 * Self.halfWidthIO * io / Float(FW), stepY = 2 * Self.halfHeightIO * io / Float(FH)
        image.pixels.withUnsafeBufferPointer { px in
            for j in 0..<FH {
                let v = (Float(j) + 0.5 - Float(FH) / 2)
                for i in 0..<FW {
                    let u = (Float(i) + 0.5 - Float(FW) / 2)
                    let c = origin + ex * (u * stepX) + ey * (v * stepY)
                    fine[j * FW + (mirrored ? FW - 1 - i : i)] = bilinear(px, image.width, image.height, c.x, c.y)
                }
            }
        }
        // Each coarse sample is the mean of its 2x2 fine ones (reads a quarter of its step either side).
        for j in 0..<H {
            for i in 0..<W {
                let a = fine[2 * j * FW + 2 * i], b = fine[2 * j * FW + 2 * i + 1]
                let d = fine[(2 * j + 1) * FW + 2 * i], e = fine[(2 * j + 1) * FW + 2 * i + 1]
                samples[j * W + i] = (a + b + d + e) * 0.25
            }
        }
        for k in out.indices { out[k] = 0 }
        let O = Self.orientations, C = Self.cellSize, columns = Self.cellColumns, rows = Self.cellRows
        let cells = columns * rows * O
        var total: Float = 0
        for j in 0..<H {
            let up = max(j - 1, 0), down = min(j + 1, H - 1)
            for i in 0..<W {
                let l = max(i - 1, 0), r = min(i + 1, W - 1)
                let gx = samples[j * W + r] - samples[j * W + l]
                let gy = samples[down * W + i] - samples[up * W + i]
                let m = (gx * gx + gy * gy).squareRoot()
                guard m > 0 else { continue }
                // Unsigned orientation in 4 bins round 0°, 45°, 90°, 135° by comparisons (tan 22.5° =
                // 0.41421), no arctangent: (gx, gy) and (−gx, −gy) fall in the same bin.
                let ax = abs(gx), ay = abs(gy)
                let bin = ay < 0.41421356 * ax ? 0 : ax < 0.41421356 * ay ? 2 : (gx * gy > 0 ? 1 : 3)
                out[((j / C) * columns + i / C) * O + bin] += m
                total += m
            }
        }
        let meanCell = total / Float(columns * rows)
        let meanSample = total / Float(W * H)
        guard meanCell > 1e-3 else { for k in 0..<(Self.count - 1) { out[k] = 0 }; out[Self.count - 1] = 1; return true }
        // Block-normalised copy: each cell against its 3x3 neighbourhood, so a thin wire rim beside a dark
        // brow still counts (HOG's local normalisation, Dalal & Triggs 2005).
        for cy in 0..<rows {
            for cx in 0..<columns {
                var energy: Float = 0, n: Float = 0
                for y in max(cy - 1, 0)...min(cy + 1, rows - 1) {
                    for x in max(cx - 1, 0)...min(cx + 1, columns - 1) {
                        for b in 0..<O { energy += out[(y * columns + x) * O + b] }
                        n += 1
                    }
                }
                let norm = 1 / (energy / n + 0.1 * meanCell)
                for b in 0..<O { out[cells + (cy * columns + cx) * O + b] = (out[(cy * columns + cx) * O + b] * norm).squareRoot() }
            }
        }
        for k in 0..<cells { out[k] = (out[k] / meanCell).squareRoot() }
        // Line profiles: a rim, a bridge or a top bar is a thin line running the width of a zone, so its
        // second difference across the line adds up along it while skin texture cancels. Horizontal lines
        // per sample row in five zones (temple, eye, bridge, eye, temple); vertical ones per column over the
        // eye rows (lens sides, hinges). Each |sum| over the zone, in units of the band's mean gradient.
        var k = 2 * cells
        for zone in Self.rowZones {
            for j in 0..<H {
                let up = max(j - 1, 0), down = min(j + 1, H - 1)
                var sum: Float = 0
                for i in zone { sum += 2 * samples[j * W + i] - samples[up * W + i] - samples[down * W + i] }
                out[k] = (abs(sum) / (Float(zone.count) * meanSample)).squareRoot()
                k += 1
            }
        }
        for i in 0..<W {
            let l = max(i - 1, 0), r = min(i + 1, W - 1)
            var sum: Float = 0
            for j in Self.columnZone { sum += 2 * samples[j * W + i] - samples[j * W + l] - samples[j * W + r] }
            out[k] = (abs(sum) / (Float(Self.columnZone.count) * meanSample)).squareRoot()
            k += 1
        }
        fillSegments(&out, from: k)
        out[Self.count - 1] = 1
        return true
    }

    /// Rim-scale line segments on the fine grid (2 x 2 samples per coarse one, about 2 px apart on a
    /// face of io 100 px): per cell of 16 x 16 fine samples (the coarse cells), the strongest straight
    /// horizontal line (|Σ over the cell's width of the second difference across it|, the largest over
    /// its rows) and the strongest vertical one, per unit length, in units of the fine band's mean
    /// gradient, square-rooted. A thin wire rim or a rimless lens edge is a line one or two fine
    /// samples wide that the coarse grid blurs into skin texture; over the five cross-validation folds
    /// these 96 values took held-out real glasses from 91 to 97 % (Models/README.md).
    private mutating func fillSegments(_ out: inout [Float], from start: Int) {
        let FW = 2 * Self.gridWidth, FH = 2 * Self.gridHeight, S = 2 * Self.cellSize
        let columns = Self.cellColumns, rows = Self.cellRows
        var total: Float = 0
        for j in 0..<FH {
            let up = max(j - 1, 0), down = min(j + 1, FH - 1)
            for i in 0..<FW {
                let l = max(i - 1, 0), r = min(i + 1, FW - 1)
                let gx = fine[j * FW + r] - fine[j * FW + l], gy = fine[down * FW + i] - fine[up * FW + i]
                total += (gx * gx + gy * gy).squareRoot()
            }
        }
        let unit = 1 / ((total / Float(FW * FH) + 1e-3) * Float(S))
        // Sums along a cell's width per fine row, and along a cell's height per fine column: the second
        // difference is linear, so its sum along a line is the second difference of these sums.
        for j in 0..<FH {
            for cx in 0..<columns {
                var sum: Float = 0
                for i in (cx * S)..<((cx + 1) * S) { sum += fine[j * FW + i] }
                rowSums[j * columns + cx] = sum
            }
        }
        for i in 0..<(rows * FW) { columnSums[i] = 0 }
        for j in 0..<FH { for i in 0..<FW { columnSums[(j / S) * FW + i] += fine[j * FW + i] } }
        for cy in 0..<rows {
            for cx in 0..<columns {
                var horizontal: Float = 0, vertical: Float = 0
                for j in (cy * S)..<((cy + 1) * S) {
                    let up = max(j - 1, 0), down = min(j + 1, FH - 1)
                    horizontal = max(horizontal, abs(2 * rowSums[j * columns + cx] - rowSums[up * columns + cx] - rowSums[down * columns + cx]))
                }
                for i in (cx * S)..<((cx + 1) * S) {
                    let l = max(i - 1, 0), r = min(i + 1, FW - 1)
                    vertical = max(vertical, abs(2 * columnSums[cy * FW + i] - columnSums[cy * FW + l] - columnSums[cy * FW + r]))
                }
                out[start + cy * columns + cx] = (horizontal * unit).squareRoot()
                out[start + rows * columns + cy * columns + cx] = (vertical * unit).squareRoot()
            }
        }
    }
}
