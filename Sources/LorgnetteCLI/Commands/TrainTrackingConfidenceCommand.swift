import LandmarkTraining
import ArgumentParser
import FaceData
import FaceTracking
import Foundation
import Inputs
import JPEGCodec
import Landmarks

/// `lorgnette train tracking-confidence`: the tracker's "still a face?" classifier for a landmark model.
struct TrainTrackingConfidenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking-confidence",
        abstract: "Train the tracking-loss classifier (logistic regression on the landmark cascade's descriptors).",
        discussion: """
            Fits the landmark model on every face of the --data training split from starts on the face \
            (jittered boxes, tracking starts) and off it (shifted, shrunk and enlarged boxes, the mouth, \
            an eye, background windows), labels each fit by its error against the annotation (face below \
            --positive-nme, not a face above --negative-nme) and trains an L2 logistic regression on the \
            cascade's last-stage descriptors. The loss threshold keeps --keep-rate of the validation \
            split's faces. Rerun whenever the landmark model changes: the file records which model it \
            belongs to and the tracker ignores it for any other. Deterministic for a given --seed.
            """
    )

    @Option(help: "Folder of face crops with .pts annotations (FaceDataset layout).")
    var data: String

    @Option(name: .customLong("landmark-model"), help: "Landmark model file (default: Models/landmarks.lmrk).")
    var landmarkModel: String?

    @Option(help: "Output file.")
    var out: String

    @Option(help: "Random seed for the start perturbations.")
    var seed: UInt64 = 1

    @Option(name: .customLong("positive-nme"), help: "Fits closer than this (inter-ocular NME) are faces.")
    var positiveNME: Float = 0.10

    @Option(name: .customLong("negative-nme"), help: "Fits further than this are not faces.")
    var negativeNME: Float = 0.25

    @Option(help: "L2 regularisation strength.")
    var lambda: Float = 1e-3

    @Option(help: "Optimiser iterations.")
    var iterations = 400

    @Option(name: .customLong("keep-rate"), help: "Share of validation faces the threshold keeps.")
    var keepRate: Float = 0.995

    @Option(help: "Use at most this many faces of each split, training and validation (0: all; for quick trials).")
    var limit = 0

    func validate() throws {
        if !(positiveNME > 0 && negativeNME > positiveNME) { throw ValidationError("need 0 < --positive-nme < --negative-nme") }
        if !(lambda > 0 && lambda.isFinite) { throw ValidationError("--lambda must be positive") }
        if iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if !(keepRate > 0.5 && keepRate < 1) { throw ValidationError("--keep-rate must be in (0.5, 1)") }
        if limit < 0 { throw ValidationError("--limit must be 0 or positive") }
    }

    func run() throws {
        try reportingErrors("train tracking-confidence", usageErrors: true) {
            try train()
        }
    }

    private func train() throws {
        try OutputSafety.refuseOverwritingInputs(outputs: [("--out", out)],
                                                 inputs: [data, landmarkModel ?? (try? ModelsDirectory.file("landmarks.lmrk").path)])
        let dataset: FaceDataset
        do { dataset = try FaceDataset(directory: data) } catch { throw ValidationError("cannot read face data in \(data): \(error)") }
        let modelPath: String
        if let landmarkModel {
            guard FileManager.default.fileExists(atPath: landmarkModel) else { throw ValidationError("missing model file \(landmarkModel)") }
            modelPath = landmarkModel
        } else {
            modelPath = try ModelsDirectory.file("landmarks.lmrk").path
        }
        let cascade: LandmarkCascade
        do { cascade = try LandmarkCascade(contentsOf: modelPath) } catch { throw ValidationError("\(modelPath): \(error)") }
        var options = TrackingConfidenceTrainer.Options()
        options.positiveNME = positiveNME
        options.negativeNME = negativeNME
        options.lambda = lambda
        options.iterations = iterations
        options.keepRate = keepRate
        options.seed = seed
        options.limit = limit
        let bar = ProgressBar()
        let start = Date()
        let (model, report) = try TrackingConfidenceTrainer(cascade: cascade, options: options)
            .train(dataset: dataset, decoder: PhotoDecoder()) { done, total in bar.update(Double(done) / Double(total), "fitting faces") }
        bar.finish()
        var annotated = model
        annotated.metadata["command"] = "lorgnette train tracking-confidence --data <faces68/train> --seed \(seed)"
        annotated.metadata["landmark_model_file"] = (modelPath as NSString).lastPathComponent
        try OutputFile.write(annotated.archive().serialized(), to: out)
        print("training fits: \(report.trainingPositives) faces, \(report.trainingNegatives) non-faces; validation: \(report.validationPositives) / \(report.validationNegatives)")
        print(String(format: "validation AUC %.4f; threshold %.3f keeps %.2f %% of faces, rejects %.2f %% of non-faces; %.0f s; wrote %@",
                     report.validationAUC, report.threshold, 100 * report.validationKept, 100 * report.validationRejected,
                     Date().timeIntervalSince(start), out))
    }
}
