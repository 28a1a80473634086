import ArgumentParser
import DetectorTraining
import FaceDetection
import Foundation
import Inputs
import JPEGCodec

/// `lorgnette train detector`: trains the HOG + linear SVM face detector with hard-negative mining.
struct TrainDetectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detector",
        abstract: "Train the HOG sliding-window face detector (linear SVM, hard-negative mining).",
        discussion: """
            Uses the training split of every --data folder (the photo-level 90 % that FaceDataset \
            keeps out of validation). Positives are the canonical boxes of the annotated faces and \
            their mirror images, read from the detector's own pyramid (also at half a scale step); \
            negatives are random background windows of the same images, then --rounds rounds of \
            hard-negative mining. The score threshold is set for --recall on the training faces. \
            The same data, options and --seed give the same model.
            """
    )

    @OptionGroup var training: TrainingOptions

    @Option(help: "Seed of the negative sampling and the SVM's visiting order.")
    var seed: UInt64 = 1

    @Option(help: "Hard-negative mining rounds.")
    var rounds = 3

    @Option(help: "SVM cost C.")
    var cost: Float = 0.01

    @Option(help: "Training-set recall at which the detection threshold is set (0.5...1).")
    var recall: Float = 0.99

    @Option(help: "Use at most this many training faces (smoke tests).")
    var limit: Int?

    func run() throws {
        try reportingErrors("train detector", usageErrors: true) {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--out", training.out)], inputs: training.data)
            try train()
        }
    }

    private func train() throws {
        guard !training.data.isEmpty else { throw ValidationError("give at least one --data folder") }
        guard rounds >= 0, rounds <= 10 else { throw ValidationError("--rounds must be in 0...10") }
        guard cost > 0, cost.isFinite else { throw ValidationError("--cost must be a positive number") }
        guard recall >= 0.5, recall <= 1 else { throw ValidationError("--recall must be in 0.5...1") }
        if let limit, limit < 1 { throw ValidationError("--limit must be positive") }
        let started = Date()
        try MediaFactory.requireFolders(training.data)
        var faces: [DetectorTrainingFace] = []
        for directory in training.data {
            // With --limit, an even spread over each folder's sorted list, so a small run still
            // mixes the source sets.
            faces += try DetectorTrainingFace.load(directory: directory, split: .training, decoder: PhotoDecoder(),
                                                   limit: limit.map { max(1, $0 / training.data.count) })
        }
        guard !faces.isEmpty else { throw CLIError("no training faces in \(training.data.joined(separator: ", "))") }
        printError("loaded \(faces.count) training faces in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")

        var options = DetectorTrainingOptions()
        options.seed = seed
        options.miningRounds = rounds
        options.cost = cost
        options.targetRecall = recall
        let bar = ProgressBar()
        let (trained, report) = DetectorTrainer(options: options) { p in
            bar.update(p.overall, "\(p.stage) \(p.done)/\(p.total)")
        }.train(faces)
        bar.finish()
        for line in report.roundsLog { printError(line) }

        var model = trained
        model.provenance["training.command"] = "lorgnette train detector " + CommandLine.arguments.dropFirst(3).joined(separator: " ")
        model.provenance["training.data"] = training.data.map { ($0 as NSString).lastPathComponent }.joined(separator: ",")
            + " (training split, \(faces.count) faces + mirrors)"
        model.provenance["training.seed"] = String(seed)
        model.provenance["training.options"] = "rounds=\(rounds) cost=\(cost) recall=\(recall)"
        model.provenance["training.samples"] = "\(report.positives) positives, \(report.negatives) negatives"
        model.provenance["training.result"] = String(format: "threshold %.4f, training recall %.4f, %.3f false positives per training crop",
                                                     report.threshold, report.trainingRecall, report.trainingFalsePositivesPerImage)
        model.provenance["training.licence"] = "trained on 300-W annotations (research use only)"
        try OutputFile.write(model.serialized(), to: training.out)
        printError(String(format: "wrote %@: threshold %.3f, training recall %.2f %% at %.3f false positives per crop (%.0f s)",
                          training.out, report.threshold, 100 * report.trainingRecall, report.trainingFalsePositivesPerImage,
                          Date().timeIntervalSince(started)))
    }
}
