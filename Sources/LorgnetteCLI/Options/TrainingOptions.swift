import ArgumentParser

/// What every `train` command reads and writes: dataset folders (FaceDataset layout: photos with
/// 68-point .pts files and index.csv) and the model file it makes.
struct TrainingOptions: ParsableArguments {
    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Dataset folders (.jpg/.png + .pts with 68 points, index.csv), e.g. faces68/train.")
    var data: [String]

    @Option(help: "Output model file.")
    var out: String
}
