@testable import FaceDetection
import Imaging
import Testing

/// The levels a photo's pixel budget skips are made and scored only around seeds
/// (`SkippedLevelSearch`): every window scored there must get exactly the score the whole level's
/// scan gives it, or a face would be found or missed depending on where the seeds fell.
@Suite struct SkippedLevelSearchTests {
    @Test(arguments: [(203, 157, 150, 116), (203, 157, 203, 157), (96, 80, 57, 47)])
    func regionOfALevelEqualsTheWholeLevelCropped(sw: Int, sh: Int, tw: Int, th: Int) {
        let image = PaddedLevelTests.textured(sw, sh, seed: sw + tw)
        var resampler = PyramidResampler()
        var whole = GrayImage(width: 0, height: 0), region = GrayImage(width: 400, height: 300, fill: 255)
        let border = 32
        resampler.resize(image, width: tw, height: th, border: border, into: &whole)
        // Inside, across the picture's edge, in the frame only, and the whole padded level.
        let pw = tw + 2 * border, ph = th + 2 * border
        for (columns, rows) in [(40 ..< 90, 35 ..< 71), (0 ..< 50, ph - 45 ..< ph), (0 ..< 20, 0 ..< 8), (0 ..< pw, 0 ..< ph)] {
            resampler.resizeRegion(image, width: tw, height: th, border: border, columns: columns, rows: rows, into: &region)
            var expected = GrayImage(width: columns.count, height: rows.count)
            for (v, y) in rows.enumerated() { for (u, x) in columns.enumerated() { expected[u, v] = whole[x, y] } }
            #expect(region == expected, "region \(columns) x \(rows) of a \(sw)x\(sh) -> \(tw)x\(th) level")
        }
    }

    @Test(arguments: [0, 1, 3])
    func windowsNearSeedsScoreAsOnTheWholeLevel(level: Int) {
        let model = DetectorModelFileTests.model()
        let detector = HOGFaceDetector(model: model)
        detector.borderCells = 4
        let image = PaddedLevelTests.textured(640, 480, seed: 11)
        // The whole level as the pyramid makes it, every window scored.
        var whole: [Int: [Float: Float]] = [:]
        let pyramid = HOGPyramid(levelsPerOctave: model.window.levelsPerOctave)
        var scores: [Float] = []
        var wholeCount = 0
        var firstX: Float = .infinity, lastX: Float = -.infinity
        pyramid.forEachLevel(of: image, minCellsX: 1, minCellsY: 1, startLevel: level, borderCells: 4) { l in
            var best: [Float] = []
            var size = (width: 0, height: 0)
            for (i, filter) in model.filters.enumerated() {
                size = filter.scoreMap(l.features, into: &scores)
                best = i == 0 ? Array(scores.prefix(size.width * size.height)) : zip(best, scores).map { max($0, $1) }
            }
            for y in 0 ..< size.height {
                for x in 0 ..< size.width {
                    let b = model.window.faceBox(cellX: x, cellY: y, scaleX: l.scaleX, scaleY: l.scaleY, borderPixels: l.borderPixels)
                    whole[Int(b.y * 1000), default: [:]][b.x] = best[y * size.width + x]
                    firstX = min(firstX, b.x); lastX = max(lastX, b.x)
                }
            }
            wholeCount = size.width * size.height
            return false
        }
        // Seeds inside, at the top-left corner (regions clipped by the level's edge) and at the bottom-right.
        let seeds = [FaceBox(x: 250, y: 170, width: 100, height: 100, score: 1), FaceBox(x: -40, y: -40, width: 90, height: 90, score: 0),
                     FaceBox(x: 580, y: 420, width: 95, height: 95, score: 2)]
        var search = SkippedLevelSearch()
        var budget = Int.max
        var found = 0, corner = false, farCorner = false
        search.scan(image, level: level, seeds: seeds, radius: 0.3, detector: detector, threshold: -.greatestFiniteMagnitude,
                    pixelBudget: &budget) { box in
            found += 1
            let expected = whole[Int(box.y * 1000)]?[box.x]
            #expect(expected == box.score, "window at \(box.x), \(box.y) of level \(level): \(box.score) vs the whole level's \(String(describing: expected))")
            corner = corner || box.x == firstX
            farCorner = farCorner || box.x == lastX
        }
        #expect(found > 20 && found < wholeCount, "\(found) windows of \(wholeCount)")
        #expect(corner && farCorner, "the regions clipped by the level's edges were not scanned")
    }
}
