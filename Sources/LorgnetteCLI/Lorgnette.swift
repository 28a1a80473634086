import ArgumentParser

@main
struct Lorgnette: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lorgnette",
        abstract: "Real-time face tracking and eyeglasses try-on for Linux.",
        subcommands: [ConvertCommand.self, InfoCommand.self, LandmarksCommand.self, EvalCommand.self, TrainCommand.self, DevicesCommand.self, RecordCommand.self, TrackCommand.self, ViewCommand.self, CatalogueCommand.self, LiveCommand.self, MeasureCommand.self, BenchCommand.self]
    )
}
