import Foundation
import Testing

/// `lorgnette track` and `live` camera choice through the built binary: files get an estimated field of
/// view by default (one stderr line), `--fov DEG` and `--fov auto` are honoured, bad values are refused.
@Suite("track/live --fov", .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct TrackFieldOfViewTests {
    static let clip: String = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/data/videos/liveportrait_d18.mjpeg").path
    }()
    static var hasClip: Bool { FileManager.default.fileExists(atPath: clip) }

    /// The horizontal field of view `track` reports using ("camera fx 1432.6 (25.2° horizontal)").
    static func usedFOV(_ stderr: String) -> Double? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.contains("° horizontal)") }),
              let open = line.lastIndex(of: "(") else { return nil }
        return Double(line[line.index(after: open)...].prefix { $0 == "." || $0.isNumber })
    }

    @Test("a file without --fov: the field of view is estimated from the first frames and used",
          .enabled(if: hasClip, "shared clip absent: \(clip)"))
    func fileDefaultsToAuto() throws {
        let r = try CLI.run(["track", "--input", Self.clip, "--json", "/dev/null", "--frames", "40"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("camera: field of view") }, "\(r.stderr)")
        #expect(line.contains("estimated from"))
        let used = try #require(Self.usedFOV(r.stderr))
        // The clip is a crop from a longer lens: the webcam default (60°) puts the face 23 cm away.
        #expect(used > 10 && used < 45, "used \(used)°: \(line)")
        #expect(line.contains("\(Int(used.rounded()))°"))
    }

    @Test("--fov DEG is used as given, no estimate", .enabled(if: hasClip, "shared clip absent: \(clip)"))
    func explicitDegrees() throws {
        let r = try CLI.run(["track", "--input", Self.clip, "--json", "/dev/null", "--frames", "3", "--fov", "40"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.usedFOV(r.stderr) == 40.0)
        #expect(!r.stderr.contains("camera: field of view"))
    }

    @Test("bad --fov values: one-line error, non-zero exit")
    func badValues() throws {
        for value in ["wide", "0", "200", "nan"] {
            let r = try CLI.run(["track", "--input", "demo", "--json", "/dev/null", "--fov", value])
            #expect(r.status != 0, "--fov \(value)")
            #expect(r.stderr.contains("--fov"), "--fov \(value): \(r.stderr)")
        }
        let live = try CLI.run(["live", "--input", "demo", "--frames", "1", "--output", "/dev/null.avi", "--fov", "wide"])
        #expect(live.status != 0)
        #expect(live.stderr.contains("--fov"))
    }

    @Test("live --fov auto on a file prints the estimate and tracks", .enabled(if: hasClip, "shared clip absent: \(clip)"))
    func liveAuto() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("fov-auto-\(getpid()).avi").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try CLI.run(["live", "--input", Self.clip, "--frames", "5", "--output", out, "--fov", "auto"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("camera: field of view"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}
