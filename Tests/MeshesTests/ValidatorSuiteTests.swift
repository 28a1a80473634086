import Foundation
import Meshes
import Testing

/// Issue 23 item 4: the loader over every asset of the Khronos glTF-Validator test suite
/// (`../shared/data/gltf-validator-tests`, each with the validator's `.report.json`):
/// - nothing crashes (a trap would end this process) and nothing hangs (each load under 5 s);
/// - an asset the validator finds no error in loads, or is refused only for a named unsupported
///   required extension, or for having nothing to draw ("model has no triangles": many valid
///   assets test JSON structure alone, which the suite's README calls a fair answer; likewise
///   triangles all on one vertical line, and a buffer whose bytes the file does not provide);
/// - an asset with errors is refused with a reason, or loads (tolerantly, as a viewer would).
/// The counts per category are printed for the issue's note.
@Suite("Khronos glTF-Validator suite", .enabled(if: ValidatorSuite.available, "needs ../shared/data/gltf-validator-tests next to the repository"))
struct ValidatorSuiteTests {
    static let directory = ValidatorSuite.directory

    static func assets() -> [String] {
        let e = FileManager.default.enumerator(atPath: directory)!
        var out: [String] = []
        while let f = e.nextObject() as? String { if f.hasSuffix(".gltf") || f.hasSuffix(".glb") { out.append(f) } }
        return out.sorted()
    }

    static func errorCount(_ asset: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + asset + ".report.json"),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let issues = root["issues"] as? [String: Any] else { return nil }
        return (issues["numErrors"] as? NSNumber)?.intValue
    }

    @Test func everyAssetLoadsOrIsRefusedForANamedReason() throws {
        let loader = SharedModels.loader()
        var counts: [String: Int] = [:]
        var unexpected: [String] = []
        var slowest = (seconds: 0.0, asset: "")
        let assets = Self.assets()
        #expect(assets.count >= 370, "the suite has 372 assets")
        for asset in assets {
            let errors = try #require(Self.errorCount(asset), "\(asset) has a report")
            let start = Date()
            var reason: String? = nil
            do { _ = try loader.load(path: Self.directory + "/" + asset) } catch let e as MeshError { reason = e.reason } catch {
                reason = "unexpected error type: \(error)"
            }
            let seconds = Date().timeIntervalSince(start)
            if seconds > slowest.seconds { slowest = (seconds, asset) }
            #expect(seconds < 5, "\(asset) took \(seconds) s")
            let category: String
            switch (errors == 0, reason) {
            case (true, nil): category = "valid, loaded"
            case (true, let r?) where r.contains("required extension") && r.contains("is not supported"):
                category = "valid, refused: unsupported required extension"
            case (true, let r?) where r.hasSuffix("model has no triangles"): category = "valid, refused: nothing to draw"
            case (true, let r?) where r.contains("zero extent"): category = "valid, refused: nothing to draw (all vertices on a vertical line)"
            case (true, let r?) where r.contains("has no uri and there is no GLB binary chunk"):
                category = "valid, refused: buffer data not provided" // the validator checks JSON only; no viewer can draw it
            case (true, let r?):
                category = "valid, refused: other"
                unexpected.append("\(asset): \(r)")
            case (false, nil): category = "invalid, loaded tolerantly"
            case (false, let r?) where r.isEmpty || r.hasPrefix("unexpected error type"):
                category = "invalid, refused without a reason"
                unexpected.append("\(asset): '\(r)'")
            case (false, _): category = "invalid, refused with a reason"
            }
            counts[category, default: 0] += 1
        }
        print("validator suite: \(assets.count) assets; slowest \(String(format: "%.3f", slowest.seconds)) s (\(slowest.asset))")
        for (k, v) in counts.sorted(by: { $0.key < $1.key }) { print("  \(k): \(v)") }
        for u in unexpected { print("  unexpected: \(u)") }
        #expect(unexpected.isEmpty, "\(unexpected.count) assets refused for no acceptable reason")
    }
}

enum ValidatorSuite {
    static let directory = SharedModels.repository.deletingLastPathComponent().appendingPathComponent("shared/data/gltf-validator-tests").path
    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/README.md") }
}
