import ArgumentParser
import EyeglassesTraining
import FaceData
import FaceModel
import FacialMetrics
import Foundation
import Landmarks

/// `lorgnette train eyeglasses`: the "glasses on the face?" classifier that `measure` consults.
struct TrainEyeglassesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eyeglasses",
        abstract: "Train the eyeglasses classifier (logistic regression on gradient cells of the eye band).",
        discussion: """
            Samples from the --data training split (photo-level): each photo as it is, labelled by --labels \
            (glasses or sunglasses: positive; not listed: negative; unsure: left out), and each photo without \
            glasses with --rendered-per-face pairs drawn on by the try-on renderer (every catalogue frame and \
            colour, and the models under --glasses-models), posed by PnP from the annotation under a random \
            light and field of view; all mirrored too. Landmarks are the cascade's tracking fit on the image \
            read. The threshold lets at most --false-alarm-rate of the bare faces of a held-out fifth of the \
            training photos through. Deterministic for a given --seed.
            """
    )

    @Option(help: "Folder of face crops with .pts annotations (FaceDataset layout).")
    var data: String

    @Option(help: "Hand labels of the photos (default: Models/faces68-eyeglasses-labels.txt).")
    var labels: String?

    @Option(name: .customLong("glasses-models"), help: "Folder of folders of .glb/.gltf glasses to draw too (e.g. ../shared/data/glasses).")
    var glassesModels: String?

    @Option(help: "Output file.")
    var out: String

    @Option(name: .customLong("rendered-per-face"), help: "Glasses drawn on each photo without glasses.")
    var renderedPerFace = 2

    @Option(name: .customLong("real-weight"), help: "Times each real glasses photo counts.")
    var realWeight = 4

    @Option(name: .customLong("false-alarm-rate"), help: "Share of held-out bare faces the threshold may call glasses.")
    var falseAlarmRate = 0.01

    @Option(help: "L2 regularisation strength.")
    var lambda: Float = 1e-3

    @Option(help: "Random seed (glasses, light, field of view).")
    var seed: UInt64 = 1

    @Option(name: .customLong("tune-fold"), help: "Which fifth of the training photos tunes the threshold (0-4; the shipped model: 0; the others cross-validate the recipe).")
    var tuneFold: UInt64 = 0

    @Option(help: "Use at most this many faces (0: all; for quick trials).")
    var limit = 0

    func run() throws {
        try reportingErrors("train eyeglasses", usageErrors: true) {
            guard tuneFold < 5 else { throw ValidationError("--tune-fold must be 0-4") }
            let dataset: FaceDataset
            do { dataset = try FaceDataset(directory: data) } catch { throw ValidationError("cannot read face data in \(data): \(error)") }
            let labelFile = try labels ?? ModelsDirectory.file("faces68-eyeglasses-labels.txt").path
            let labelSet = try EyeglassesLabels(contentsOf: labelFile)
            let cascade = try LandmarkCascade(contentsOf: ModelsDirectory.file("landmarks.lmrk").path)
            let face = try MeanFace(contentsOf: ModelsDirectory.file("mean-face.json").path)
            let glasses = try EyeglassesData.glasses(modelsFolder: glassesModels)
            printError("train eyeglasses: \(glasses.count) glasses to draw: \(glasses.map(\.name).joined(separator: ", "))")
            var options = EyeglassesTrainer.Options()
            options.renderedPerFace = renderedPerFace
            options.realPositiveWeight = realWeight
            options.falseAlarmRate = falseAlarmRate
            options.lambda = lambda
            options.seed = seed
            options.limit = limit
            options.tuneFold = tuneFold
            let trainer = EyeglassesTrainer(options: options)
            var maker = EyeglassesSampleMaker(landmarks: cascade, face: face, glasses: glasses)
            let start = Date()
            let bar = ProgressBar()
            let samples = try trainer.samples(dataset.entries(.training), labels: labelSet, maker: &maker, load: EyeglassesData.load) { done, total in
                bar.update(Double(done) / Double(total), "faces")
            }
            bar.finish()
            var (model, report) = trainer.train(samples)
            model.metadata["command"] = "lorgnette train eyeglasses --data <faces68/train>" + (glassesModels.map { _ in " --glasses-models <shared/data/glasses>" } ?? "")
                + " --rendered-per-face \(renderedPerFace) --real-weight \(realWeight) --false-alarm-rate \(falseAlarmRate) --seed \(seed)"
            model.metadata["labels_file"] = (labelFile as NSString).lastPathComponent
            try OutputFile.write(model.archive().serialized(), to: out)
            print("samples: \(report.negatives) bare, \(report.realPositives) real glasses (x\(realWeight), mirrored), \(report.renderedPositives) rendered")
            print(String(format: "tune fold: threshold %.3f; %d bare faces, %.2f %% called glasses; %d real glasses, %.1f %% found; %d rendered, %.1f %% found; %.0f s; wrote %@",
                         report.threshold, report.tuneNegatives, report.tuneFalseAlarms * 100, report.tuneRealPositives, report.tuneRealDetected * 100,
                         report.tuneRendered, report.tuneRenderedDetected * 100, Date().timeIntervalSince(start), out))
        }
    }
}
