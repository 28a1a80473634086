import ArgumentParser
import Foundation

/// `lorgnette train <model>`: trains one of the bundled models from annotated faces.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a model (face detector or landmark regressor) from annotated faces.",
        subcommands: trainSubcommands
    )

    /// One entry per model kind; each lives in its own `Train<Kind>Command.swift`.
    static var trainSubcommands: [any ParsableCommand.Type] {
        [TrainLandmarksCommand.self, TrainDetectorCommand.self, TrainFaceModelCommand.self, TrainTrackingConfidenceCommand.self, TrainEyeglassesCommand.self]
    }
}

/// A one-line progress bar with elapsed time and ETA on standard error (redrawn in place when
/// standard error is a terminal, otherwise printed every 10 %).
final class ProgressBar {
    private let start = Date()
    private var lastDrawn = -1.0
    private let interactive = isatty(2) != 0
    private let width = 30

    func update(_ fraction: Double, _ phase: String) {
        let f = min(max(fraction, 0), 1)
        let step = interactive ? 0.002 : 0.1
        guard f - lastDrawn >= step || f == 1 && lastDrawn < 1 else { return }
        lastDrawn = f
        let elapsed = Date().timeIntervalSince(start)
        let eta = f > 0.01 ? elapsed * (1 - f) / f : .nan
        let filled = Int((Double(width) * f).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = String(format: "[%@] %5.1f%%  %@ elapsed, ETA %@  %@", bar, 100 * f, Self.clock(elapsed), eta.isNaN ? "--:--" : Self.clock(eta), phase)
        printError((interactive ? "\r\u{1B}[K" : "") + line, newline: !interactive)
    }

    func finish() {
        if interactive { printError("") }
    }

    static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%d:%02d", t / 60, t % 60)
    }
}
