import FaceData
import FaceDetection
import Inputs
import JPEGCodec
@testable import LandmarkTraining
import Landmarks
import LinearAlgebra
import Testing

@Suite struct TrainingSmokeTests {
    /// The first `count` training faces, started from their canonical boxes.
    static func faces(_ count: Int) throws -> [TrainingFace] {
        try TrainingSet.load(directories: [SharedData.faces], split: .training, limit: count, decoder: PhotoDecoder()).faces.map {
            TrainingFace(name: $0.name, image: $0.image, landmarks: $0.landmarks, box: FaceBox.canonical(landmarks: $0.landmarks))
        }
    }

    /// A cascade small enough to train in seconds: 3 starts per face, 2 stages, 1-cell descriptors.
    static func tinyOptions() -> LandmarkTrainingOptions {
        var options = LandmarkTrainingOptions()
        options.perturbations = 3
        options.strides = [3, 2]
        options.descriptor = DescriptorSpec(cells: 1, cellSamples: 4, bins: 8)
        return options
    }

    /// Trains a tiny cascade (coarse 1-cell descriptors, 2 stages) on a handful of real faces and
    /// checks that each stage reduces the training error and that the saved model predicts the same.
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func tinyModelLearnsAndRoundTrips() throws {
        let faces = try Self.faces(12)
        #expect(faces.count == 12)
        var options = Self.tinyOptions()
        options.ridgeCandidates = [0.01, 0.1]
        options.ridgeFoldPercent = 25
        let (cascade, reports) = try LandmarkTrainer(options: options).train(faces: faces)
        #expect(cascade.stages.count == 2)
        for r in reports { #expect(r.nmeAfter < r.nmeBefore, "stage \(r.stage) did not reduce the training error") }
        #expect(reports.last!.nmeAfter < 0.8 * reports.first!.nmeBefore)

        let again = try LandmarkTrainer(options: options).train(faces: faces).0
        let f = faces[0]
        #expect(again.landmarks(in: f.image, box: f.box) == cascade.landmarks(in: f.image, box: f.box), "same seed, different model")

        let reloaded = try LandmarkCascade(bytes: cascade.archive(weightEncoding: .float32).serialized())
        let a = cascade.landmarks(in: f.image, box: f.box), b = reloaded.landmarks(in: f.image, box: f.box)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 1e-2 && abs(a[i].y - b[i].y) < 1e-2) }
    }

    /// The same tiny cascade with its second stage split into two yaw domains and the ridge fold
    /// held out: the stage holds two different maps, still reduces the training error, and round-trips.
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func yawDomainsAndHeldOutFold() throws {
        let faces = try Self.faces(16)
        var options = Self.tinyOptions()
        options.ridgeCandidates = [0.01, 0.1]
        options.ridgeFoldPercent = 25
        // A fold that holds some of these 16 faces, so its held-out error is measured.
        options.ridgeFold = try #require((1..<4).first { k in faces.contains { LandmarkTrainer.isRidgeFold($0.name, percent: 25, fold: k) } })
        options.yawDomains = 2
        options.holdOut = true
        let (cascade, reports) = try LandmarkTrainer(options: options).train(faces: faces)
        #expect(cascade.stages[0].yawDomains == nil)
        let domains = try #require(cascade.stages[1].yawDomains)
        #expect(domains.maps.count == 2 && domains.maps[0].weights != domains.maps[1].weights)
        for r in reports { #expect(r.nmeAfter < r.nmeBefore, "stage \(r.stage) did not reduce the training error") }
        #expect(reports.allSatisfy { $0.foldNMEBefore > 0 })
        let reloaded = try LandmarkCascade(bytes: cascade.archive(weightEncoding: .float32).serialized())
        let f = faces[0]
        let a = cascade.landmarks(in: f.image, box: f.box), b = reloaded.landmarks(in: f.image, box: f.box)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 1e-2 && abs(a[i].y - b[i].y) < 1e-2) }
    }

    /// Cross-fitting changes how the training samples move between stages, not the stored maps of
    /// the stage: the first stage is the same map, and the samples it moves end further from their
    /// annotations (each group moved by a map that never saw it) than when moved by the full map.
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func crossFittingMovesSamplesByHeldOutMaps() throws {
        let faces = try Self.faces(16)
        var options = Self.tinyOptions()
        options.ridgeCandidates = [0.01, 0.1]
        options.ridgeFoldPercent = 25
        let (plain, plainReports) = try LandmarkTrainer(options: options).train(faces: faces)
        options.crossFit = 2
        let (crossed, crossedReports) = try LandmarkTrainer(options: options).train(faces: faces)
        #expect(crossed.stages[0].weights == plain.stages[0].weights)
        #expect(crossedReports[0].nmeAfter > plainReports[0].nmeAfter)
        #expect(crossedReports[1].nmeAfter < crossedReports[1].nmeBefore)
    }

    /// The between-face statistics are Σ_f n_f x̄_f x̄_fᵀ and Σ_f n_f x̄_f ȳ_fᵀ over runs of rows of the
    /// same face, so `XᵀX − (1 − γ) B` keeps the within-face part whole and weights the face means by γ.
    @Test func betweenFaceStatisticsAreTheWeightedFaceMeans() {
        let x = Matrix(rows: 5, cols: 2, values: [1, 2, 3, 4, 5, 6, 0, 1, 2, 1])
        let y = Matrix(rows: 5, cols: 1, values: [1, 3, 2, 4, 0])
        let faces = [7, 7, 3, 3, 3]
        let (gram, cross) = LandmarkTrainer.betweenFace(x: x, y: y, faces: faces)
        // Face 7: mean (2, 3), y 2, n 2; face 3: mean (7/3, 8/3), y 2, n 3.
        let m: [(SIMD2<Double>, Double, Double)] = [(SIMD2(2, 3), 2, 2), (SIMD2(7.0 / 3, 8.0 / 3), 2, 3)]
        func b(_ i: Int, _ j: Int) -> Double { m.reduce(0) { $0 + $1.2 * $1.0[i] * $1.0[j] } }
        #expect(abs(Double(gram[0, 0]) - b(0, 0)) < 1e-4 && abs(Double(gram[0, 1]) - b(0, 1)) < 1e-4 && abs(Double(gram[1, 1]) - b(1, 1)) < 1e-4)
        #expect(abs(Double(cross[0, 0]) - m.reduce(0) { $0 + $1.2 * $1.0[0] * $1.1 }) < 1e-4)
        #expect(abs(Double(cross[1, 0]) - m.reduce(0) { $0 + $1.2 * $1.0[1] * $1.1 }) < 1e-4)
    }

    /// With between-face weights on offer the trainer still learns, reports the weight it chose
    /// per stage (1 or one of those offered), and reproduces itself.
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func betweenFaceWeightsAreChosenPerStage() throws {
        let faces = try Self.faces(16)
        var options = Self.tinyOptions()
        options.ridgeCandidates = [0.01, 0.1, 1]
        options.ridgeFoldPercent = 25
        options.betweenWeights = [0.5, 0.2]
        let (cascade, reports) = try LandmarkTrainer(options: options).train(faces: faces)
        for r in reports {
            #expect(r.nmeAfter < r.nmeBefore, "stage \(r.stage) did not reduce the training error")
            #expect([1, 0.5, 0.2].contains(r.betweenWeight))
        }
        let again = try LandmarkTrainer(options: options).train(faces: faces).0
        let f = faces[0]
        #expect(again.landmarks(in: f.image, box: f.box) == cascade.landmarks(in: f.image, box: f.box), "same seed, different model")
    }

    /// A local-binary-feature stage appended to the tiny cascade: it reduces the training error left
    /// by the SDM stages, the same seed gives the same model, and it survives the file (version 4).
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func binaryStageLearnsAndRoundTrips() throws {
        let faces = try Self.faces(12)
        var options = Self.tinyOptions()
        options.ridgeCandidates = [0.1]
        options.ridgeFoldPercent = 25
        options.binary.radii = [8]
        options.binary.trees = 2
        options.binary.depth = 3
        options.binary.ridgeCandidates = [1, 10]
        options.binary.betweenWeights = [1, 0.3]
        var lines: [String] = []
        let (cascade, reports) = try LandmarkTrainer(options: options).train(faces: faces, log: { lines.append($0) })
        #expect(cascade.stages.count == 2 && cascade.binaryStages.count == 1)
        let line = try #require(lines.first { $0.hasPrefix("binary stage 1") })
        // "train NME a -> b": the binary stage moves the samples closer to their annotations.
        let numbers = line.components(separatedBy: "train NME ")[1].components(separatedBy: ",")[0].components(separatedBy: " -> ").compactMap { Float($0) }
        #expect(numbers.count == 2 && numbers[1] < numbers[0] && abs(numbers[0] - reports.last!.nmeAfter) < 1e-5, "\(line)")

        let again = try LandmarkTrainer(options: options).train(faces: faces).0
        let f = faces[0]
        #expect(again.landmarks(in: f.image, box: f.box) == cascade.landmarks(in: f.image, box: f.box), "same seed, different model")
        let reloaded = try LandmarkCascade(bytes: cascade.archive(weightEncoding: .float32).serialized())
        #expect(reloaded.binaryStages.count == 1)
        let a = cascade.landmarks(in: f.image, box: f.box), b = reloaded.landmarks(in: f.image, box: f.box)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 1e-2 && abs(a[i].y - b[i].y) < 1e-2) }
    }

    /// The between-face weights' ridge window is ordinary ridge's choice and its neighbours; with
    /// `extend` it steps on while the best error sits at its edge, and stops at the list's end.
    @Test func ridgeWindowExtendsWhileTheEdgeIsBest() {
        func falling(_ i: Int) -> Float { Float(i) }   // the weakest ridge is best
        #expect(LandmarkTrainer.ridgeWindow(count: 7, around: 4, extend: false, error: falling) == [3, 4, 5])
        #expect(LandmarkTrainer.ridgeWindow(count: 7, around: 4, extend: true, error: falling) == [3, 4, 5, 2, 1, 0])
        func valley(_ i: Int) -> Float { Float((i - 1) * (i - 1)) }   // best at index 1
        #expect(LandmarkTrainer.ridgeWindow(count: 7, around: 4, extend: true, error: valley) == [3, 4, 5, 2, 1, 0])
        func rising(_ i: Int) -> Float { -Float(i) }
        #expect(LandmarkTrainer.ridgeWindow(count: 7, around: 3, extend: true, error: rising) == [2, 3, 4, 5, 6])
        #expect(LandmarkTrainer.ridgeWindow(count: 7, around: 3, extend: true, error: valley) == [2, 3, 4, 1, 0])   // 0 shows 1 is a minimum
        #expect(LandmarkTrainer.ridgeWindow(count: 7, around: 2, extend: true, error: valley) == [1, 2, 3, 0])
        #expect(LandmarkTrainer.ridgeWindow(count: 3, around: 0, extend: true, error: falling) == [0, 1])
    }

    /// A cross-fitting move is the stage's own fit on fewer faces: on the same rows, with the same
    /// ridge and between-face weight, it predicts what the held-out map `fitMap` fits does
    /// (projected onto the stage's output directions), and γ < 1 changes it.
    @Test func crossFitMovesUseTheStagesBetweenFaceWeight() throws {
        var rng = SplitMix64(seed: 3)
        let features = 6, outputs = 3, perFace = 4, faceCount = 10
        let rows = faceCount * perFace
        let faceOfRow = (0..<rows).map { $0 / perFace }
        let offsets = (0..<faceCount).map { _ in (0..<features).map { _ in Float.random(in: -1...1, using: &rng) } }
        var x = Matrix(rows: rows, cols: features), y = Matrix(rows: rows, cols: outputs)
        for r in 0..<rows {
            for c in 0..<features - 1 { x[r, c] = offsets[faceOfRow[r]][c] + Float.random(in: -0.5...0.5, using: &rng) }
            x[r, features - 1] = 1
            for o in 0..<outputs { y[r, o] = x[r, o] - 0.5 * x[r, o + 1] + offsets[faceOfRow[r]][5] + Float.random(in: -0.1...0.1, using: &rng) }
        }
        let fitRows = Array(0..<(7 * perFace)), moveRows = Array((7 * perFace)..<rows)
        var options = LandmarkTrainingOptions()
        options.holdOut = true
        options.ridgeCandidates = [0.1]
        options.betweenWeights = [0.2]
        options.forceBetweenWeight = true
        options.rankEnergy = 1
        let fit = try LandmarkTrainer.fitMap(x: x, y: y, fitRows: fitRows, judgeRows: moveRows, stride: 1, faceOfRow: faceOfRow, options: options)
        #expect(fit.betweenWeight == 0.2 && fit.stage.rank == outputs)
        let moved = try LandmarkTrainer.heldOutIncrements(x: x, y: y, fitRows: fitRows, moveRows: moveRows, ridge: 0.1,
                                                          betweenWeight: 0.2, faceOfRow: faceOfRow, stage: fit.stage)
        let direct = BLAS.multiply(LandmarkTrainer.gather(x, rows: moveRows), fit.full)
        for i in direct.values.indices { #expect(abs(moved.values[i] - direct.values[i]) < 1e-3) }
        let plain = try LandmarkTrainer.heldOutIncrements(x: x, y: y, fitRows: fitRows, moveRows: moveRows, ridge: 0.1, stage: fit.stage)
        #expect(zip(plain.values, moved.values).map { abs($0 - $1) }.max()! > 1e-3)
    }

    /// Fixed per-stage parameters are used as given, whatever the ridge fold would have chosen.
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func fixedStageParametersAreUsedAsGiven() throws {
        let faces = try Self.faces(16)
        var options = Self.tinyOptions()
        options.ridgeFoldPercent = 25
        options.stageParameters = [(ridge: 0.05, betweenWeight: 0.3), (ridge: 0.2, betweenWeight: 1)]
        let (_, reports) = try LandmarkTrainer(options: options).train(faces: faces)
        #expect(reports[0].ridge == 0.05 && reports[0].betweenWeight == 0.3)
        #expect(reports[1].ridge == 0.2 && reports[1].betweenWeight == 1)
        for r in reports { #expect(r.nmeAfter < r.nmeBefore, "stage \(r.stage) did not reduce the training error") }
    }
}
