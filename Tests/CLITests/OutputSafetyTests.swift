import Foundation
import Testing

/// Issue 25, "outputs never hurt inputs": every command that writes refuses an output that is one
/// of its inputs (the same path, a symlink or a hard link to it) before it opens anything, and a
/// failed write (a full disk, a closed pipe, a full or closed stderr) ends the run with one line
/// and an exit status, never a crash.
@Suite(.serialized, .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct OutputSafetyTests {
    /// A folder with `in.mjpeg` (`frames` small frames), a symlink and a hard link to it.
    private func clip(frames: Int = 4, _ name: String = #function) throws -> (dir: String, input: String, symlink: String, hardLink: String) {
        let dir = try CLIMedia.temporaryDirectory(name)
        let input = dir + "/in.mjpeg"
        try CLIMedia.write(try (0..<frames).flatMap { try CLIMedia.frame($0) }, to: input)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.mjpeg", withDestinationPath: "in.mjpeg")
        try FileManager.default.linkItem(atPath: input, toPath: dir + "/hard.mjpeg")
        return (dir, input, dir + "/link.mjpeg", dir + "/hard.mjpeg")
    }

    /// Runs `arguments` and checks it was refused in one line naming `option`, the input untouched.
    private func expectRefused(_ arguments: [String], option: String, input: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try CLIMedia.read(input)
        let r = try CLI.run(arguments, timeout: 60)
        #expect(r.status == 1, "\(arguments.joined(separator: " ")): status \(r.status) \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(option) && lines[0].contains("is the input"),
                "\(arguments.joined(separator: " ")): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(try CLIMedia.read(input) == before, "\(arguments.joined(separator: " ")) changed its input", sourceLocation: sourceLocation)
    }

    @Test func videoCommandsRefuseTheirInputAsOutput() throws {
        let c = try clip()
        for output in [c.input, c.symlink, c.hardLink] {
            try expectRefused(["track", "--input", c.input, "--fov", "60", "--json", output], option: "--json", input: c.input)
            try expectRefused(["track", "--input", c.input, "--fov", "60", "--output", output], option: "--output", input: c.input)
            try expectRefused(["live", "--input", c.input, "--output", output], option: "--output", input: c.input)
            try expectRefused(["convert", c.input, output], option: "output", input: c.input)
            try expectRefused(["measure", "--input", c.input, "--frames-json", output], option: "--frames-json", input: c.input)
            try expectRefused(["bench", "--input", c.input, "--no-demo", "--json", output], option: "--json", input: c.input)
            try expectRefused(["bench", "--input", c.input, "--no-demo", "--svg", output], option: "--svg", input: c.input)
            try expectRefused(["record", "--device", c.input, "--output", output], option: "--output", input: c.input)
        }
    }

    @Test func aPhotoIsNotOverwrittenByMeasure() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let photo = dir + "/photo.jpg"
        try CLIMedia.write(try CLIMedia.frame(0, width: 96, height: 64), to: photo)
        try FileManager.default.createSymbolicLink(atPath: dir + "/frames.json", withDestinationPath: photo)
        try expectRefused(["measure", "--input", photo, "--frames-json", photo], option: "--frames-json", input: photo)
        try expectRefused(["measure", "--input", photo, "--frames-json", dir + "/frames.json"], option: "--frames-json", input: photo)
        try expectRefused(["track", "--input", photo, "--fov", "60", "--json", dir + "/frames.json"], option: "--json", input: photo)
    }

    @Test func anOutputInsideAFolderInputIsRefusedWhenItIsOneOfItsImages() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let photos = dir + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try CLIMedia.write(try CLIMedia.frame(0), to: photos + "/a.jpg")
        let before = try CLIMedia.read(photos + "/a.jpg")
        let r = try CLI.run(["track", "--input", photos, "--fov", "60", "--json", photos + "/a.jpg"])
        #expect(r.status == 1 && r.stderr.contains("one of the images the input folder"), "\(r.stderr)")
        #expect(try CLIMedia.read(photos + "/a.jpg") == before)
        // A folder output holding the input photo under a name it writes.
        try CLIMedia.write(try CLIMedia.frame(1), to: dir + "/frame_000000.jpg")
        let folder = try CLI.run(["convert", dir + "/frame_000000.jpg", dir])
        #expect(folder.status == 1 && folder.stderr.contains("would replace the input"), "\(folder.stderr)")
    }

    @Test func modelAndTrainingCommandsRefuseTheirInputs() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let model = dir + "/glasses.obj"
        try CLIMedia.write(Array("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".utf8), to: model)
        try FileManager.default.createSymbolicLink(atPath: dir + "/glasses.png", withDestinationPath: model)
        try expectRefused(["view", model, "-o", dir + "/glasses.png"], option: "--output", input: model)
        let lmrk = dir + "/m.lmrk"
        try CLIMedia.write(Array("not a model".utf8), to: lmrk)
        try expectRefused(["train", "landmarks", "--data", dir, "--remap-from", lmrk, "--out", lmrk], option: "--out", input: lmrk)
        try expectRefused(["train", "tracking-confidence", "--data", dir, "--landmark-model", lmrk, "--out", lmrk], option: "--out", input: lmrk)
        try expectRefused(["eval", "landmarks", "--data", dir, "--model", lmrk, "--svg", lmrk], option: "--svg", input: lmrk)
        try expectRefused(["eval", "photos", "--data", dir, "--model", lmrk, "--per-face", lmrk], option: "--per-face", input: lmrk)
    }

    @Test func devicesAndStandardOutputAreNeverTheInput() throws {
        let c = try clip()
        let r = try CLI.run(["track", "--input", c.input, "--fov", "60", "--json", "/dev/null"])
        #expect(r.status == 0, "\(r.stderr)")
        let stdout = try CLI.run(["track", "--input", c.input, "--fov", "60", "--json", "-"])
        #expect(stdout.status == 0 && stdout.stdout.split(separator: "\n").count == 4, "\(stdout.stderr)")
    }

    @Test func aFullDiskIsAnErrorNotACrash() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let c = try clip()
        let track = try CLI.run(["track", "--input", c.input, "--fov", "60", "--json", "/dev/full"])
        #expect(track.status == 1, "\(track.stderr)")
        #expect(track.stderr.contains("cannot write /dev/full: No space left on device"), "\(track.stderr)")
        let measure = try CLI.run(["measure", "--input", c.input, "--frames-json", "/dev/full"])
        #expect(measure.status == 1 && measure.stderr.contains("cannot write /dev/full: No space left on device"), "\(measure.stderr)")
        let bench = try CLI.run(["bench", "--input", c.input, "--no-demo", "--no-peers", "--frames", "2", "--warmup", "0",
                                 "--size", "64x64", "--markdown", "/dev/full"], timeout: 300)
        #expect(bench.status == 1 && bench.stderr.contains("cannot write /dev/full: No space left on device"), "\(bench.stderr)")
    }

    @Test func aReaderThatClosesTheJSONPipeEndsTheRunQuietly() throws {
        // More lines than a pipe buffers (64 KB), so track writes after head has gone whatever the timing.
        let c = try clip(frames: 2500)
        // head leaves after the first bytes; track must notice at a later write and stop with status 0
        // (pipefail: the pipeline fails if track does).
        let script = "set -o pipefail; \"$L\" track --input '\(c.input)' --fov 60 --json - 2>err.txt | head -c 10 >/dev/null"
        let piped = try Self.bash(script, in: c.dir)
        #expect(piped.status == 0, "status \(piped.status): \(piped.stderr)")
        let err = (try? String(contentsOfFile: c.dir + "/err.txt", encoding: .utf8)) ?? ""
        #expect(err.contains("closed the pipe"), "\(err)")
    }

    @Test func aFullOrClosedStandardErrorDoesNotEndTheRun() throws {
        let c = try clip()
        for redirect in ["2>/dev/full", "2>&-"] {
            let r = try Self.bash("\"$L\" track --input '\(c.input)' --fov 60 --json out.json \(redirect)", in: c.dir)
            #expect(r.status == 0, "\(redirect): status \(r.status)")
            #expect(try String(contentsOfFile: c.dir + "/out.json", encoding: .utf8).split(separator: "\n").count == 4)
        }
    }

    /// Runs `script` with bash in `dir`, `$L` the lorgnette executable.
    static func bash(_ script: String, in dir: String) throws -> CLI.Result {
        try PipeTests.shell("cd '\(dir)' && exec bash -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'")
    }
}
