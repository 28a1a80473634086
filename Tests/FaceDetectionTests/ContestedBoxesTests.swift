import Testing

@testable import FaceDetection

/// Which suppressed windows count as a kept box's rivals (`contestedBoxes`).
struct ContestedBoxesTests {
    @Test func rivalsAreTheBestSuppressedWindowsOfClearlyDifferentSize() {
        let kept = FaceBox(x: 100, y: 100, width: 100, height: 100, score: 1)
        let sameSize = FaceBox(x: 108, y: 100, width: 100, height: 100, score: 0.8)       // the same face one cell over
        let inside = FaceBox(x: 120, y: 120, width: 40, height: 40, score: 0.2)           // nested: covers > 0.7 of the smaller
        let insideWorse = FaceBox(x: 140, y: 130, width: 45, height: 45, score: 0.1)      // another spot: a second rival
        let insideShifted = FaceBox(x: 124, y: 120, width: 40, height: 40, score: 0.15)   // `inside` one cell over: not a rival
        let larger = FaceBox(x: 60, y: 60, width: 250, height: 250, score: 0.5)           // the kept box nested in it
        let largerWorse = FaceBox(x: 50, y: 50, width: 200, height: 200, score: 0.4)
        let slightlyLarger = FaceBox(x: 95, y: 95, width: 130, height: 130, score: 0.9)   // x1.3: not a rival
        let elsewhere = FaceBox(x: 1000, y: 100, width: 40, height: 40, score: 0.7)        // another face
        let candidates = [kept, sameSize, inside, insideWorse, insideShifted, larger, largerWorse, slightlyLarger, elsewhere]
        let survivors = nonMaximumSuppression(candidates)
        #expect(survivors == [kept, elsewhere])
        let groups = contestedBoxes(kept: survivors, candidates: candidates)
        #expect(groups.map(\.box) == survivors)
        // Per side, the suppression among the rivals themselves, then the best two: `largerWorse` is
        // nested in `larger`, `insideShifted` overlaps `inside`.
        #expect(groups[0].rivals == [larger, inside, insideWorse])
        #expect(groups[1].rivals.isEmpty)
        #expect(contestedBoxes(kept: survivors, candidates: candidates, perSide: 1)[0].rivals == [larger, inside])
    }

    @Test func theRuleMatchesTheSuppression() {
        // A box is a rival only of the box that suppressed it: a window overlapping nothing kept is nobody's.
        let a = FaceBox(x: 0, y: 0, width: 100, height: 100, score: 1)
        let apart = FaceBox(x: 101, y: 0, width: 300, height: 300, score: 0.5)
        #expect(contestedBoxes(kept: [a], candidates: [a, apart])[0].rivals.isEmpty)
        #expect(suppresses(a, FaceBox(x: 10, y: 10, width: 300, height: 300, score: 0), maxIoU: 0.3, maxCoverage: 0.7))
    }
}
