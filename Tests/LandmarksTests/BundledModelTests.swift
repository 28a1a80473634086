import FaceData
import FaceDetection
import Foundation
import Inputs
import JPEGCodec
import LandmarkTraining
import Landmarks
import Testing

/// Checks the model shipped in `Models/` on validation faces it was not trained on.
@Suite struct BundledModelTests {
    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func bundledModelIsAccurateOnValidationFaces() throws {
        // Load time is measured in Bench/ (LandmarkBenchmarks), not here: a debug build on a busy machine says nothing.
        let cascade = try LandmarkCascade(contentsOf: SharedData.bundledModel)
        #expect(cascade.landmarkCount == 68 && cascade.stages.count >= 4)
        let loaded = try TrainingSet.load(directories: [SharedData.faces], split: .validation, limit: 25, decoder: PhotoDecoder())
        var evaluation = LandmarkEvaluation()
        for face in loaded.faces {
            let shape = cascade.landmarks(in: face.image, box: FaceBox.canonical(landmarks: face.landmarks))
            evaluation.add(name: face.name, predicted: shape, truth: face.landmarks, seconds: 0)
        }
        #expect(evaluation.count == 25)
        #expect(evaluation.meanInterOcular < 0.06, "mean NME \(evaluation.meanInterOcular)")
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/data/faces68/train"))
    func trackingFromTheTruthStaysOnTheFace() throws {
        let cascade = try LandmarkCascade(contentsOf: SharedData.bundledModel)
        let loaded = try TrainingSet.load(directories: [SharedData.faces], split: .validation, limit: 10, decoder: PhotoDecoder())
        var evaluation = LandmarkEvaluation()
        for face in loaded.faces {
            // A previous frame a few pixels off: tracking must land near the annotation.
            let previous = face.landmarks.map { $0 + SIMD2<Float>(3, -2) }
            evaluation.add(name: face.name, predicted: cascade.track(in: face.image, previous: previous), truth: face.landmarks, seconds: 0)
        }
        #expect(evaluation.meanInterOcular < 0.06, "tracking NME \(evaluation.meanInterOcular)")
    }

    @Test func evaluationCountsMissesAsFailures() {
        var e = LandmarkEvaluation()
        let truth = (0..<68).map { SIMD2<Float>(Float($0), Float($0 % 7)) }
        e.add(name: "a", predicted: truth, truth: truth, seconds: 0.001)
        e.addMiss(name: "b")
        #expect(e.count == 2 && e.missed == 1)
        #expect(e.failureRate(above: 0.08) == 0.5)
        #expect(abs(e.auc(limit: 0.08) - 0.5) < 1e-6)
        #expect(e.meanInterOcular == 0)
    }
}
