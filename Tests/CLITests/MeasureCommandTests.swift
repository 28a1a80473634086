import Foundation
import Testing

private let sharedVideos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/videos")
private let d18 = sharedVideos.appendingPathComponent("liveportrait_d18.mjpeg").path
private let d20 = sharedVideos.appendingPathComponent("liveportrait_d20.mjpeg").path

@Suite("lorgnette measure", .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct MeasureCommandTests {
    @Test("bad arguments: one-line errors, non-zero exit")
    func badArguments() throws {
        let none = try CLI.run(["measure"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("--device") && none.stderr.contains("--input"))
        let scale = try CLI.run(["measure", "--input", "x.jpg", "--scale", "ruler"])
        #expect(scale.status != 0 && scale.stderr.contains("--scale must be iris, card or camera"))
        let missing = try CLI.run(["measure", "--input", "/nonexistent/clip.mjpeg"])
        #expect(missing.status != 0 && missing.stderr.contains("No such file"))
    }

    @Test("no face: says so and exits non-zero")
    func noFace() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write(try CLIMedia.frame(0), to: dir + "/blank.jpg")
        let r = try CLI.run(["measure", "--input", dir + "/blank.jpg"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("no face found"), "\(r.stderr)")
    }

    @Test("dev video: JSON with every field, PD in the adult range", .enabled(if: FileManager.default.fileExists(atPath: d18), "needs ../shared/data/videos"))
    func devVideoJSON() throws {
        let r = try CLI.run(["measure", "--input", d18, "--frames", "40", "--min-frames", "1", "--max-angle", "15", "--json"], timeout: 600)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "iris")
        #expect((object["frames_used"] as? Int ?? 0) >= 1)
        for key in ["pd_mm", "pd_far_mm", "temple_width_mm", "face_width_mm", "camera_distance_mm"] {
            let m = try #require(object[key] as? [String: Any], "missing \(key)")
            let ci = try #require(m["ci95"] as? [Double])
            let v = try #require(m["value"] as? Double)
            #expect(ci.count == 2 && ci[0] < v && v < ci[1] && (m["sd"] as? Double ?? -1) >= 0)
        }
        let pd = try #require((object["pd_far_mm"] as? [String: Any])?["value"] as? Double)
        #expect(pd > 50 && pd < 75)
        let mono = try #require(object["mono_pd_mm"] as? [String: [String: Any]])
        #expect(mono["left"]?["value"] != nil && mono["right"]?["value"] != nil)
        let size = try #require(object["frame_size"] as? [String: String])
        #expect(size["code"]?.contains("□") == true && ["S", "M", "L"].contains(size["label"] ?? ""))
        #expect(object["eyeglasses"] as? Bool == false, "the d18 clip shows no glasses")
    }

    @Test("glasses drawn on by the try-on: said on stderr and in the JSON, the iris scale refused (issue 24 item 6)",
          .enabled(if: FileManager.default.fileExists(atPath: d18), "needs ../shared/data/videos"))
    func eyeglassesOnTheFace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lorgnette-eyeglasses-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("tryon.mjpeg").path
        let live = try CLI.run(["live", "--input", d18, "--frames", "40", "--glasses", "round-47-21-145:gold", "-o", clip], timeout: 600)
        #expect(live.status == 0, "\(live.stderr)")
        let iris = try CLI.run(["measure", "--input", clip, "--min-frames", "1", "--max-angle", "15", "--json"], timeout: 600)
        #expect(iris.status != 0 && iris.stderr.contains("eyeglasses detected on the face") && iris.stderr.contains("iris scale is refused"), "\(iris.stderr)")
        let camera = try CLI.run(["measure", "--input", clip, "--scale", "camera", "--min-frames", "1", "--max-angle", "15", "--json"], timeout: 600)
        #expect(camera.status == 0, "\(camera.stderr)")
        #expect(camera.stderr.contains("eyeglasses detected on the face"), "\(camera.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(camera.stdout.utf8)) as? [String: Any])
        #expect(object["eyeglasses"] as? Bool == true)
        let unchecked = try CLI.run(["measure", "--input", clip, "--scale", "camera", "--min-frames", "1", "--max-angle", "15", "--json", "--no-eyeglasses-check"], timeout: 600)
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(unchecked.stdout.utf8)) as? [String: Any])
        #expect(plain["eyeglasses"] is NSNull && !unchecked.stderr.contains("eyeglasses detected"))
    }

    @Test("card scale without a card: says no card, non-zero", .enabled(if: FileManager.default.fileExists(atPath: d18), "needs ../shared/data/videos"))
    func noCard() throws {
        let r = try CLI.run(["measure", "--input", d18, "--frames", "25", "--max-angle", "15", "--scale", "card"], timeout: 600)
        #expect(r.status != 0)
        #expect(r.stderr.contains("no card found"), "\(r.stderr)")
    }

    @Test("too few good frames: says which and why", .enabled(if: FileManager.default.fileExists(atPath: d18), "needs ../shared/data/videos"))
    func tooFew() throws {
        let r = try CLI.run(["measure", "--input", d18, "--frames", "5"], timeout: 300)
        #expect(r.status != 0)
        #expect(r.stderr.contains("too few good frames"), "\(r.stderr)")
    }

    @Test("squinting eyes (the d20 clip) are rejected, not measured", .enabled(if: FileManager.default.fileExists(atPath: d20), "needs ../shared/data/videos"))
    func squinting() throws {
        let r = try CLI.run(["measure", "--input", d20, "--frames", "30", "--max-angle", "15", "--min-frames", "1"], timeout: 600)
        #expect(r.status != 0)
        #expect(r.stderr.contains("too few good frames: 0 of 30"), "\(r.stderr)")
        #expect(r.stderr.contains("eyes too narrow to see the iris"), "\(r.stderr)")
    }

    @Test("several photos: each one not used is named with its reason, one that passes gives the result (issue 24 item 7)",
          .enabled(if: FileManager.default.fileExists(atPath: d18), "needs ../shared/data/videos"))
    func photosOneByOne() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write(try CLIMedia.frame(0), to: dir + "/blank.jpg")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
        // Frame 40 of d18, cut from the raw MJPEG stream as it is (a face looking at the camera).
        let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: d18)))
        var starts: [Int] = []
        for i in 0..<(stream.count - 2) where stream[i] == 0xFF && stream[i + 1] == 0xD8 && stream[i + 2] == 0xFF { starts.append(i) }
        try Data(stream[starts[40]..<starts[41]]).write(to: URL(fileURLWithPath: dir + "/d18.jpg"))
        let r = try CLI.run(["measure", "--input", dir + "/blank.jpg", dir + "/broken.jpg", dir + "/d18.jpg", "--json"], timeout: 300)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("blank.jpg: not used (no face found)"), "\(r.stderr)")
        #expect(r.stderr.contains("broken.jpg: not used"), "\(r.stderr)")
        #expect(r.stderr.contains("d18.jpg: used"), "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["frames_used"] as? Int == 1)
        let none = try CLI.run(["measure", "--input", dir + "/blank.jpg", dir + "/broken.jpg", dir + "/blank.jpg"], timeout: 300)
        #expect(none.status != 0 && none.stderr.contains("none of the 3 photos passed"), "\(none.stderr)")
    }
}
