import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

@main
struct Lorgnette: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lorgnette",
        abstract: "Real-time face tracking and eyeglasses try-on for Linux.",
        subcommands: [ConvertCommand.self, InfoCommand.self, LandmarksCommand.self, EvalCommand.self, TrainCommand.self, DevicesCommand.self, RecordCommand.self, TrackCommand.self, ViewCommand.self, CatalogueCommand.self, LiveCommand.self, MeasureCommand.self, BenchCommand.self]
    )

    /// A reader that closes a pipe we write to (`--output -`, `--json -` into `head`) must end the run
    /// through a write error the commands handle, not kill the process mid-file with SIGPIPE.
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }
}
