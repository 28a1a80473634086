import Foundation
import Imaging

/// The pyramid levels a photo's pixel budget skips (`PhotoFaceDetector.pixelBudget`), scanned only
/// around seeds: windows of the first scanned level that score above a threshold lower than the
/// detector's. A face smaller than that level's window still looks enough like one to the same
/// filter to pass the lower threshold there, so the full-resolution levels, whose whole scan would
/// cost about half again the budgeted scan, are computed and scored only where a seed points.
/// A coarse-to-fine search in the spirit of the cascade's early rejection (Felzenszwalb, Girshick,
/// McAllester, CVPR 2010), with the coarse level as the cheap test.
///
/// Exactness: each seed's level region is made bit for bit as the whole level would be
/// (`PyramidResampler.resizeRegion`), with two cells of margin so every window scored has the
/// features the whole level's HOG gives it (`SkippedLevelSearchTests`). Only levels of the first
/// octave are searched (photos up to 4x the budget, 24 Mpixel by default); beyond that the levels
/// between the first octave and the budget's first level stay unscanned.
///
/// Keeps its scratch between calls: one per detector (not thread-safe).
struct SkippedLevelSearch {
    /// Window positions (top-left cells, inclusive ranges) of one level to score.
    struct WindowRect: Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
        /// The best rank (index in the seeds given) of the seeds it serves: regions are made in that order.
        var rank: Int
    }

    private let extractor = HOGExtractor()
    private var resampler = PyramidResampler()
    private var crop = GrayImage(width: 0, height: 0)
    private var map = HOGFeatureMap()
    private var scores: [Float] = []
    private var best: [Float] = []

    /// Cells of margin around the windows scored: a cell's histogram needs the pixel beside it and
    /// its normalisation the cells beside it, so the outer two cells of a region are not exact.
    static let marginCells = 2

    /// Scores the windows of level `index` whose face centre lies within `radius` x the seed's side
    /// of a seed's centre, and calls `body` with each scoring at least `threshold`. Regions are made
    /// in the seeds' order (first = most wanted), each only if it fits in what is left of
    /// `pixelBudget` (level pixels, decremented).
    mutating func scan(_ image: GrayImage, level index: Int, seeds: [FaceBox], radius: Float, detector: HOGFaceDetector,
                       threshold: Float, pixelBudget: inout Int, _ body: (FaceBox) -> Void) {
        let window = detector.model.window
        let cell = HOGFeatureMap.cellSize
        let border = detector.borderCells * cell
        let s = exp2(-Double(index) / Double(window.levelsPerOctave))
        let w = Int((Double(image.width) * s).rounded()), h = Int((Double(image.height) * s).rounded())
        let pw = w + 2 * border, ph = h + 2 * border
        let cellsX = pw / cell, cellsY = ph / cell
        guard w >= 1, h >= 1, cellsX >= window.cells, cellsY >= window.cells else { return }
        let scaleX = Float(w) / Float(image.width), scaleY = Float(h) / Float(image.height)
        let rects = Self.windowRects(seeds: seeds, radius: radius, window: window, scaleX: scaleX, scaleY: scaleY,
                                     border: border, cellsX: cellsX, cellsY: cellsY)
        let m = Self.marginCells
        for r in rects {
            let cx0 = max(0, r.x0 - m), cy0 = max(0, r.y0 - m)
            let cx1 = min(cellsX, r.x1 + window.cells + m), cy1 = min(cellsY, r.y1 + window.cells + m)
            // Up to 7 pixels past the last cell when the level has them: its gradients read them.
            let columns = cx0 * cell ..< min(cx1 * cell + cell - 1, pw), rows = cy0 * cell ..< min(cy1 * cell + cell - 1, ph)
            let cost = columns.count * rows.count
            guard cost <= pixelBudget else { continue }
            pixelBudget -= cost
            resampler.resizeRegion(image, width: w, height: h, border: border, columns: columns, rows: rows, into: &crop)
            extractor.compute(crop, into: &map)
            let size = detector.model.bestScores(map, scores: &scores, best: &best)
            for y in r.y0 ... r.y1 {
                for x in r.x0 ... r.x1 {
                    let score = best[(y - cy0) * size.width + (x - cx0)]
                    if score >= threshold {
                        body(window.faceBox(cellX: x, cellY: y, scaleX: scaleX, scaleY: scaleY, score: score, borderPixels: border))
                    }
                }
            }
        }
    }

    /// The window positions near the seeds as rectangles, in the seeds' order: one per seed, then any
    /// two whose regions (windows plus margin) overlap merged into their bounding rectangle when
    /// that costs no more pixels than the two, so neighbouring seeds share their HOG. Overlapping
    /// rectangles left unmerged score their shared windows twice (the same box twice; suppression
    /// keeps one).
    static func windowRects(seeds: [FaceBox], radius: Float, window: DetectorWindow, scaleX: Float, scaleY: Float,
                            border: Int, cellsX: Int, cellsY: Int) -> [WindowRect] {
        let cell = Float(HOGFeatureMap.cellSize)
        let half = Float(window.faceSidePixels) / 2
        // Window (x, y)'s face centre is input point ((x + faceOffset) * cell + half - border) / scale - 0.5.
        func range(_ c: Float, _ r: Float, _ scale: Float, _ cells: Int) -> (Int, Int) {
            let lo = ((c - r + 0.5) * scale + Float(border) - half) / cell - Float(window.faceOffset)
            let hi = ((c + r + 0.5) * scale + Float(border) - half) / cell - Float(window.faceOffset)
            return (max(0, Int(lo.rounded(.up))), min(cells - window.cells, Int(hi.rounded(.down))))
        }
        var rects: [WindowRect] = []
        for (rank, seed) in seeds.enumerated() {
            let c = seed.centre, r = radius * seed.width
            let (x0, x1) = range(c.x, r, scaleX, cellsX), (y0, y1) = range(c.y, r, scaleY, cellsY)
            if x0 <= x1 && y0 <= y1 { rects.append(WindowRect(x0: x0, y0: y0, x1: x1, y1: y1, rank: rank)) }
        }
        let reach = window.cells + 2 * marginCells
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < rects.count {
                var j = i + 1
                while j < rects.count {
                    let a = rects[i], b = rects[j]
                    let union = WindowRect(x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1),
                                           rank: min(a.rank, b.rank))
                    func area(_ r: WindowRect) -> Int { (r.x1 - r.x0 + reach) * (r.y1 - r.y0 + reach) }
                    // Merged only when one region costs no more than the two: diagonal neighbours'
                    // bounding box would hold much that neither needs.
                    if a.x0 < b.x1 + reach && b.x0 < a.x1 + reach && a.y0 < b.y1 + reach && b.y0 < a.y1 + reach
                        && area(union) <= area(a) + area(b) {
                        rects[i] = union
                        rects.remove(at: j)
                        merged = true
                    } else {
                        j += 1
                    }
                }
                i += 1
            }
        }
        return rects.sorted { $0.rank < $1.rank }
    }
}
