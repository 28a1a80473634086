import ArgumentParser
import Landmarks

/// The spellings of `DetectionRefinement`'s combinations on the command line (`eval landmarks
/// --consensus`, `--mirror`).
enum DetectionRefinementOptions {
    /// `best`, `median:D` or `weighted:D`.
    static func consensus(_ text: String) throws -> DetectionRefinement.StartConsensus {
        if text == "best" { return .best }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let d = Float(parts[1]), d.isFinite, d >= 0 else {
            throw ValidationError("--consensus must be best, median:D or weighted:D (D ≥ 0, in inter-ocular distances)")
        }
        switch parts[0] {
        case "median": return .median(within: d)
        case "weighted": return .weightedMean(within: d)
        default: throw ValidationError("--consensus must be best, median:D or weighted:D")
        }
    }

    /// `none`, `mean` or `agree:T`.
    static func mirror(_ text: String) throws -> DetectionRefinement.MirrorCombination? {
        switch text {
        case "none": return nil
        case "mean": return .mean
        default:
            guard text.hasPrefix("agree:"), let t = Float(text.dropFirst(6)), t.isFinite, t >= 0 else {
                throw ValidationError("--mirror must be none, mean or agree:T (T ≥ 0, in inter-ocular distances)")
            }
            return .meanWhereAgreeing(within: t)
        }
    }
}
