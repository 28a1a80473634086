import FaceDetection
import Imaging
import Testing

@Suite struct DetectorPartsTests {
    @Test func scoreMapMatchesWindowScores() {
        var img = GrayImage(width: 120, height: 104)
        for y in 0 ..< 104 { for x in 0 ..< 120 { img[x, y] = UInt8((x * 7 + y * 13 + (x * y) % 31) & 255) } }
        let map = HOGExtractor().compute(img)
        var weights = [Float](repeating: 0, count: 4 * 3 * HOGFeatureMap.stride)
        for i in weights.indices where i % HOGFeatureMap.stride != 31 { weights[i] = Float((i * 37) % 11) / 10 - 0.5 }
        let filter = LinearWindowFilter(cellsX: 4, cellsY: 3, weights: weights, bias: 0.25)
        var scores: [Float] = []
        let size = filter.scoreMap(map, into: &scores)
        #expect(size.width == map.cellsX - 3 && size.height == map.cellsY - 2)
        for y in 0 ..< size.height {
            for x in 0 ..< size.width {
                let direct = filter.score(window: map.window(x: x, y: y, width: 4, height: 3))
                #expect(abs(direct - scores[y * size.width + x]) < 1e-3)
            }
        }
    }

    @Test func earlyRejectionDropsOnlyLowPartialScores() {
        var img = GrayImage(width: 96, height: 96)
        for y in 0 ..< 96 { for x in 0 ..< 96 { img[x, y] = UInt8((x * x + 3 * y * y + x * y) % 251) } }
        let map = HOGExtractor().compute(img)
        var weights = [Float](repeating: 0, count: 3 * 4 * HOGFeatureMap.stride)
        for i in weights.indices where i % HOGFeatureMap.stride != 31 { weights[i] = Float((i * 53) % 17) / 8 - 1 }
        let plain = LinearWindowFilter(cellsX: 3, cellsY: 4, weights: weights, bias: 0.1)
        var pruned = plain
        pruned.pruneRows = 2
        var all: [Float] = []
        let size = plain.scoreMap(map, into: &all)
        var partials: [Float] = []
        for y in 0 ..< size.height { for x in 0 ..< size.width {
            partials.append(plain.partialScore(window: map.window(x: x, y: y, width: 3, height: 4), rows: 2))
        }}
        pruned.pruneThreshold = partials.sorted()[partials.count / 2]
        var kept: [Float] = []
        pruned.scoreMap(map, into: &kept)
        var rejected = 0
        for i in 0 ..< size.width * size.height {
            if partials[i] < pruned.pruneThreshold - 1e-4 {
                #expect(kept[i] == -Float.greatestFiniteMagnitude); rejected += 1
            } else if partials[i] > pruned.pruneThreshold + 1e-4 {
                #expect(abs(kept[i] - all[i]) < 1e-3)
            }
        }
        #expect(rejected > 0)
    }

    @Test func windowBoxGeometry() {
        let w = DetectorWindow()
        // Level pixel edge 8 (cell 1) is input edge 8 at scale 1, i.e. pixel-centre coordinate 7.5.
        let b = w.faceBox(cellX: 0, cellY: 0, scaleX: 1, scaleY: 1)
        #expect(b.x == 7.5 && b.y == 7.5 && b.width == 64 && b.height == 64)
        let half = w.faceBox(cellX: 2, cellY: 1, scaleX: 0.5, scaleY: 0.5)
        #expect(half.x == 47.5 && half.y == 31.5 && half.width == 128)
        let whole = w.windowBox(cellX: 0, cellY: 0, scaleX: 1, scaleY: 1)
        #expect(whole.width == 80 && whole.x == -0.5)
    }

    @Test func nmsKeepsBestAndDropsOverlapsAndNested() {
        let boxes = [
            FaceBox(x: 0, y: 0, width: 100, height: 100, score: 1),
            FaceBox(x: 5, y: 5, width: 100, height: 100, score: 2),        // overlaps the first
            FaceBox(x: 30, y: 30, width: 40, height: 40, score: 0.5),     // nested in the best
            FaceBox(x: 300, y: 0, width: 80, height: 80, score: 0.1),     // separate
        ]
        let kept = nonMaximumSuppression(boxes)
        #expect(kept.map(\.score) == [2, 0.1])
    }

    @Test func pyramidLevelsShrinkByTheStep() {
        let pyramid = HOGPyramid(levelsPerOctave: 4)
        var sizes: [(Int, Int, Float)] = []
        pyramid.forEachLevel(of: GrayImage(width: 640, height: 480, fill: 9), minCellsX: 10, minCellsY: 10) { level in
            sizes.append((level.features.cellsX, level.features.cellsY, level.scaleX))
            return true
        }
        #expect(sizes.first!.0 == 80 && sizes.first!.1 == 60)
        // Levels down to a 10-cell-high map: 480 · 2^(-k/4) >= 80 for k <= 10.
        #expect(sizes.count == 11)
        for k in 1 ..< sizes.count { #expect(abs(sizes[k].2 / sizes[k - 1].2 - 0.8409) < 0.01) }
    }

    /// A pyramid scanned again (its resize tables and level buffers reused, other frame sizes in
    /// between) gives exactly the features a fresh pyramid gives, level by level.
    @Test func reusedPyramidMatchesAFreshOne() {
        func textured(_ w: Int, _ h: Int, _ seed: Int) -> GrayImage {
            var g = GrayImage(width: w, height: h)
            for y in 0..<h { for x in 0..<w { g[x, y] = UInt8(truncatingIfNeeded: (x * 7 + y * 13 + seed) ^ (x * y + seed)) } }
            return g
        }
        func levels(_ pyramid: HOGPyramid, _ image: GrayImage) -> [[Float]] {
            var out: [[Float]] = []
            pyramid.forEachLevel(of: image, minCellsX: 6, minCellsY: 6) { out.append($0.features.values); return true }
            return out
        }
        let reused = HOGPyramid(levelsPerOctave: 4)
        let a = textured(320, 240, 1), b = textured(200, 150, 2)
        _ = levels(reused, a)
        _ = levels(reused, b)
        let again = levels(reused, a)
        let fresh = levels(HOGPyramid(levelsPerOctave: 4), a)
        #expect(again.count == fresh.count && again.count > 4)
        #expect(again == fresh)
        #expect(levels(reused, b) == levels(HOGPyramid(levelsPerOctave: 4), b))
    }
}
