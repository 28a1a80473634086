import ArgumentParser
import Foundation
import LandmarkTraining

/// `--svg`, `--compare` and `--per-face` of `eval landmarks` and `eval photos`: the cumulative error
/// distribution drawn (with a peer's curve beside ours) and the per-face errors written.
struct ErrorCurveOptions: ParsableArguments {
    @Option(help: "Write the cumulative error distribution (inter-ocular NME per face, misses at infinity) here (SVG).")
    var svg: String?

    @Option(help: "Also draw this per-face CSV (name,nme_io from another tool, e.g. a peer run on `eval photos --export`) on the SVG, labelled LABEL=FILE.")
    var compare: String?

    @Option(name: .customLong("per-face"), help: "Write name,nme_io,nme_ip per face (per scene for `eval photos`) to this CSV.")
    var perFace: String?

    /// The files written, for `OutputSafety`.
    var outputs: [(String, String?)] { [("--svg", svg), ("--per-face", perFace)] }

    /// The CSV file of `--compare LABEL=FILE` (the whole value when it has no label), an input.
    var compareFile: String? { compare.map { String($0.split(separator: "=", maxSplits: 1).last ?? "") } }

    /// Writes the CSV (errors nil or infinite: "inf") and the SVG of `curves` plus the `--compare` one.
    func write(rows: [(name: String, io: Float?, ip: Float?)], curves: [CEDCurveSVG.Curve], title: String) throws {
        if let perFace {
            func cell(_ e: Float?) -> String { e.map { $0.isFinite ? String($0) : "inf" } ?? "inf" }
            var csv = "name,nme_io,nme_ip\n"
            for r in rows { csv += "\(r.name),\(cell(r.io)),\(cell(r.ip))\n" }
            try OutputFile.write(csv, to: perFace)
        }
        guard let svg else { return }
        var curves = curves
        if let compare {
            let parts = compare.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--compare wants LABEL=FILE") }
            let text = try String(contentsOfFile: parts[1], encoding: .utf8)
            let errors = text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line -> Float? in
                let f = line.split(separator: ",")
                return f.count >= 2 ? (Float(f[1]) ?? .infinity) : nil
            }
            curves.append(.init(label: parts[0], errors: errors.sorted(), colour: "#1f77b4"))
        }
        try OutputFile.write(CEDCurveSVG.render(curves, title: title), to: svg)
    }
}
