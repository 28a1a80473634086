import ArgumentParser

/// `lorgnette eval <model>`: measures a bundled model on annotated data.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure a model's accuracy and speed on annotated faces.",
        subcommands: evalSubcommands
    )

    /// One entry per model kind; each lives in its own `Eval<Kind>Command.swift`.
    static var evalSubcommands: [any ParsableCommand.Type] {
        [EvalLandmarksCommand.self, EvalDetectorCommand.self, EvalPhotosCommand.self, EvalCoverageCommand.self, EvalCardCommand.self, EvalEyeglassesCommand.self]
    }
}
