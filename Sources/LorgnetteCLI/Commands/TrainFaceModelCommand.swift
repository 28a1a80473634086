import FaceModelTraining
import ArgumentParser
import FaceData
import FaceModel
import Foundation

/// `lorgnette train face-model`: builds the metric mean face (`Models/mean-face.json`) from 68-point annotations.
struct TrainFaceModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-model",
        abstract: "Build the metric 3D mean face from 68-point annotations (rigid factorisation + anthropometry).",
        discussion: """
            Reads only the .pts files of every --data folder (all faces, no split: the mean face is \
            not evaluated on held-out faces). Tomasi-Kanade factorisation with the scaled-orthographic \
            metric upgrade, alternating refinement with the jaw triangulated from near-frontal faces, \
            mirror symmetry, and millimetre scale from published adult averages (ex-ex, en-en, IPD). \
            Deterministic: the same data give the same file.
            """
    )

    @OptionGroup var training: TrainingOptions

    @Option(name: .customLong("jaw-max-yaw"), help: "Largest |yaw| (degrees) of the images the jaw silhouette is triangulated from.")
    var jawMaxYaw = 20.0

    func run() throws {
        try reportingErrors("train face-model", usageErrors: true) {
            try train()
        }
    }

    private func train() throws {
        try OutputSafety.refuseOverwritingInputs(outputs: [("--out", training.out)], inputs: training.data)
        var shapes: [[SIMD2<Float>]] = []
        for dir in training.data {
            let dataset: FaceDataset
            do { dataset = try FaceDataset(directory: dir) } catch { throw ValidationError("cannot read face data in \(dir): \(error)") }
            for entry in dataset.entries {
                guard let text = try? String(contentsOfFile: entry.pointsPath, encoding: .utf8) else {
                    throw ValidationError("cannot read \(entry.pointsPath)")
                }
                do { shapes.append(try PTSFile.parse(text)) } catch { throw ValidationError("\(entry.pointsPath): \(error)") }
            }
        }
        var builder = MeanFaceBuilder()
        builder.jawMaxYawDegrees = jawMaxYaw
        let (face, report) = try builder.build(shapes: shapes)
        try OutputFile.write(face.jsonText, to: training.out)
        print(String(format: "mean face from %d faces (+ mirrors): median fit residual %.2f %% of inter-ocular; jaw from %d images",
                     report.faces, report.medianResidual * 100, report.jawImages))
        print(String(format: "ex-ex %.1f mm, en-en %.1f mm, IPD %.1f mm, nose tip %.1f mm in front of the pupils; wrote %@",
                     face.biocularWidthMM, face.intercanthalWidthMM, face.interpupillaryDistanceMM, -face.landmarks[30].z, training.out))
    }
}
