import Foundation
import Testing

/// `--glasses` names the spectacles; `--frame` (the old name) still works and the two conflict.
@Suite(.serialized, .enabled(if: CLI.available, "lorgnette executable not built next to the tests"))
struct GlassesOptionTests {
    @Test func oldAndNewNamesDrawTheSameGlasses() throws {
        let dir = try CLIMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let new = try CLI.run(["live", "--input", "demo:160x120", "--frames", "3", "--glasses", "round-47-21-145:silver", "--output", dir + "/a.avi"])
        let old = try CLI.run(["live", "--input", "demo:160x120", "--frames", "3", "--frame", "round-47-21-145:silver", "--output", dir + "/b.avi"])
        #expect(new.status == 0 && old.status == 0, "\(new.stderr) \(old.stderr)")
        #expect(new.stderr.contains("round-47-21-145") && old.stderr.contains("round-47-21-145"))
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.avi")), b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.avi"))
        #expect(a == b)
        let both = try CLI.run(["live", "--input", "demo:160x120", "--frames", "1", "--glasses", "round-47-21-145", "--frame", "round-50-21-145"])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
        let help = try CLI.run(["live", "--help"])
        #expect(help.stdout.contains("--glasses") && !help.stdout.contains("--frame "), "the old name stays out of the help")
    }
}
