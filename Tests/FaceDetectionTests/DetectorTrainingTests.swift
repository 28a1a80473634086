import DetectorTraining
import FaceData
import FaceDetection
import Foundation
import Inputs
import JPEGCodec
import Testing

/// `<repo>/../shared/data/faces68/train`, resolved from this file's location.
let facesDirectory: String = {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repo.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path
}()
let haveFaces = FileManager.default.fileExists(atPath: facesDirectory + "/index.csv")

@Suite struct DetectorTrainingTests {
    @Test func svmSeparatesTwoClouds() {
        // Two Gaussian-ish clouds in 20 dimensions, separable along the first axis.
        var rng = SplitMix64(seed: 3)
        var samples: [Float] = [], labels: [Float] = []
        for i in 0 ..< 200 {
            let y: Float = i % 2 == 0 ? 1 : -1
            for d in 0 ..< 20 {
                let noise = Float(rng.next() % 1000) / 1000 - 0.5
                samples.append(d == 0 ? y * 0.8 + noise * 0.5 : noise)
            }
            labels.append(y)
        }
        let s = LinearSVM(costPositive: 1, costNegative: 1).train(samples: samples, labels: labels, dimensions: 20, seed: 1)
        var correct = 0
        for i in 0 ..< 200 {
            var v = s.bias
            for d in 0 ..< 20 { v += s.weights[d] * samples[i * 20 + d] }
            if (v > 0) == (labels[i] > 0) { correct += 1 }
        }
        #expect(correct == 200)
    }

    @Test func evaluationCountsMatchesAndFalsePositives() {
        var e = DetectorEvaluation()
        let truth = FaceBox(x: 10, y: 10, width: 100, height: 100)
        e.add(detections: [FaceBox(x: 12, y: 8, width: 100, height: 100, score: 2), FaceBox(x: 300, y: 0, width: 50, height: 50, score: 1)], truth: truth)
        e.add(detections: [FaceBox(x: 200, y: 200, width: 60, height: 60, score: 0.5)], truth: truth)
        let s = e.summary(threshold: 0)
        #expect(s.recall == 0.5)
        #expect(s.falsePositivesPerImage == 1)
        #expect(e.summary(threshold: 1.5).falsePositivesPerImage == 0)
        #expect(e.threshold(forRecall: 0.5) == 2)
    }

    /// Smoke test of the whole trainer: a tiny model from a handful of faces, one mining round,
    /// must be reproducible, survive its file format and find its own training faces.
    @Test(.enabled(if: haveFaces, "needs ../shared/data/faces68/train"))
    func tinyModelTrainsAndFindsItsFaces() throws {
        let faces = try DetectorTrainingFace.load(directory: facesDirectory, split: .training, decoder: PhotoDecoder(), limit: 5)
        var options = DetectorTrainingOptions()
        options.miningRounds = 1
        options.halfStepScales = false
        options.seed = 5
        var fractions: [Double] = []
        let (model, report) = DetectorTrainer(options: options) { fractions.append($0.overall) }.train(faces)
        #expect(report.positives >= 8)
        #expect(report.negatives > report.positives)
        #expect(fractions.last! > 0.9 && fractions.last! <= 1)
        let again = DetectorTrainer(options: options).train(faces).model
        #expect(again.filters[0].weights == model.filters[0].weights)

        let loaded = try HOGFaceDetectorModel(bytes: model.serialized())
        let detector = HOGFaceDetector(model: loaded)
        var found = 0
        for face in faces where detector.detect(in: face.image).first.map({ $0.iou(face.box) >= 0.5 }) == true { found += 1 }
        #expect(found >= 4, "found \(found) of \(faces.count) training faces")
    }
}
