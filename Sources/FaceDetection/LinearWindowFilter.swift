/// A linear classifier over a window of HOG cells: score = <weights, window features> + bias.
///
/// `weights` has the layout of `HOGFeatureMap.window(...)`: `cellsY` rows of `cellsX` cells,
/// `HOGFeatureMap.stride` floats per cell (the padding float's weight is kept at 0).
///
/// Optional early rejection (a two-stage cascade in the spirit of Felzenszwalb, Girshick,
/// McAllester, "Cascade Object Detection with Deformable Part Models", CVPR 2010): when the score
/// of the first `pruneRows` cell rows plus the bias is below `pruneThreshold`, `scoreMap` stops
/// there and reports `-Float.greatestFiniteMagnitude`. The trainer sets the threshold below the
/// partial score of every training positive, so it only drops windows no face scored as low as.
public struct LinearWindowFilter: Sendable, Equatable {
    public let cellsX: Int
    public let cellsY: Int
    public var weights: [Float]
    public var bias: Float
    /// Rows scored before the early-rejection test (0 = no early rejection).
    public var pruneRows = 0
    public var pruneThreshold: Float = -.infinity

    public init(cellsX: Int, cellsY: Int, weights: [Float], bias: Float) {
        precondition(cellsX > 0 && cellsY > 0, "filter needs at least one cell")
        precondition(weights.count == cellsX * cellsY * HOGFeatureMap.stride,
                     "filter of \(cellsX)x\(cellsY) cells needs \(cellsX * cellsY * HOGFeatureMap.stride) weights, got \(weights.count)")
        self.cellsX = cellsX
        self.cellsY = cellsY
        self.weights = weights
        self.bias = bias
    }

    /// Score of the first `rows` cell rows of a window plus the bias (the early-rejection statistic).
    public func partialScore(window: [Float], rows: Int) -> Float {
        var s: Float = 0
        for i in 0 ..< min(rows, cellsY) * cellsX * HOGFeatureMap.stride { s += weights[i] * window[i] }
        return s + bias
    }

    /// Score of one window given as a flat feature vector (`HOGFeatureMap.window` layout); no early rejection.
    public func score(window: [Float]) -> Float {
        precondition(window.count == weights.count, "window has \(window.count) features, filter \(weights.count)")
        var s: Float = 0
        for i in 0 ..< weights.count { s += weights[i] * window[i] }
        return s + bias
    }

    /// Scores every window position of `map`; `scores[y * width + x]` is the window whose top-left
    /// cell is (x, y). Returns the score map's size (0 x 0 when the map is smaller than the filter).
    @discardableResult
    public func scoreMap(_ map: HOGFeatureMap, into scores: inout [Float]) -> (width: Int, height: Int) {
        let ow = map.cellsX - cellsX + 1, oh = map.cellsY - cellsY + 1
        guard ow > 0, oh > 0 else { return (0, 0) }
        if scores.count < ow * oh { scores = [Float](repeating: 0, count: ow * oh) }
        let stride = HOGFeatureMap.stride
        let rowLength = cellsX * stride
        let mapRow = map.cellsX * stride
        let rows = cellsY
        let b = bias
        let firstRows = pruneRows > 0 && pruneRows < rows ? pruneRows : rows
        let cut = pruneThreshold - bias
        let rejected = -Float.greatestFiniteMagnitude
        map.values.withUnsafeBufferPointer { f in
        weights.withUnsafeBufferPointer { w in
        scores.withUnsafeMutableBufferPointer { out in
            let fb = UnsafeRawPointer(f.baseAddress!), wb = UnsafeRawPointer(w.baseAddress!)
            let bytes = MemoryLayout<Float>.stride
            for y in 0 ..< oh {
                for x in 0 ..< ow {
                    // Sixteen lanes (one AVX-512 register) per load and fused multiply-adds: a window
                    // row is 10 cells x 32 floats = 20 loads, 5 rounds of the 4 accumulators. With
                    // eight lanes and a multiply then an add, the scan of a 12 Mpixel photo spent
                    // 27 % of its time here (perf); see `PhotoFaceDetector` for what this saved. The
                    // fused rounding moves scores by float noise: canvas-protocol boxes unchanged.
                    var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
                    var fo = (y * mapRow + x * stride) * bytes
                    var wo = 0
                    var r = 0
                    while r < rows {
                        if r == firstRows && ((a0 + a1) + (a2 + a3)).sum() < cut { break }
                        var i = 0
                        while i + 256 <= rowLength * bytes {
                            a0 = a0.addingProduct(fb.loadUnaligned(fromByteOffset: fo + i, as: SIMD16<Float>.self),
                                                  wb.loadUnaligned(fromByteOffset: wo + i, as: SIMD16<Float>.self))
                            a1 = a1.addingProduct(fb.loadUnaligned(fromByteOffset: fo + i + 64, as: SIMD16<Float>.self),
                                                  wb.loadUnaligned(fromByteOffset: wo + i + 64, as: SIMD16<Float>.self))
                            a2 = a2.addingProduct(fb.loadUnaligned(fromByteOffset: fo + i + 128, as: SIMD16<Float>.self),
                                                  wb.loadUnaligned(fromByteOffset: wo + i + 128, as: SIMD16<Float>.self))
                            a3 = a3.addingProduct(fb.loadUnaligned(fromByteOffset: fo + i + 192, as: SIMD16<Float>.self),
                                                  wb.loadUnaligned(fromByteOffset: wo + i + 192, as: SIMD16<Float>.self))
                            i += 256
                        }
                        // A row of an odd cell count: its last cell, 32 floats in two loads.
                        while i < rowLength * bytes {
                            a0 = a0.addingProduct(fb.loadUnaligned(fromByteOffset: fo + i, as: SIMD16<Float>.self),
                                                  wb.loadUnaligned(fromByteOffset: wo + i, as: SIMD16<Float>.self))
                            i += 64
                        }
                        fo += mapRow * bytes
                        wo += rowLength * bytes
                        r += 1
                    }
                    if r < rows { out[y * ow + x] = rejected; continue }
                    out[y * ow + x] = ((a0 + a1) + (a2 + a3)).sum() + b
                }
            }
        }}}
        return (ow, oh)
    }
}
