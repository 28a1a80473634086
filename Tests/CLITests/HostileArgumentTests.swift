import Foundation
import Testing

/// Issue 25's smaller items: arguments and files that used to be accepted silently, exit 0 with
/// nothing done, or fail with a raw Foundation error. Each is refused in one line now.
@Suite(.enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct HostileArgumentTests {
    /// Exactly one line on stderr (ArgumentParser's usage lines after a validation error aside).
    private func firstLine(_ r: CLI.Result) -> String { String(r.stderr.split(separator: "\n").first ?? "") }

    @Test func infoFailsWhenNothingIsReadable() throws {
        let dir = try CLIMedia.temporaryDirectory()
        FileManager.default.createFile(atPath: dir + "/empty.jpg", contents: Data())
        FileManager.default.createFile(atPath: dir + "/text.jpg", contents: Data("hello, not a picture\n".utf8))
        // A CMYK JPEG (Adobe APP14, four components) with no scan: no decoder reads it.
        let cmyk: [UInt8] = [0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x02,
                             0xFF, 0xC0, 0x00, 0x14, 0x08, 0x00, 0x10, 0x00, 0x10, 0x04,
                             0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00, 0x04, 0x11, 0x00, 0xFF, 0xD9]
        try CLIMedia.write(cmyk, to: dir + "/cmyk.jpg")
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        for path in [dir + "/empty.jpg", dir + "/text.jpg", dir + "/cmyk.jpg", dir + "/empty", "/etc"] {
            let r = try CLI.run(["info", path])
            #expect(r.status == 1, "info \(path): status \(r.status), \(r.stdout)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(path), "info \(path): \(r.stderr)")
            #expect(r.stdout.isEmpty, "info \(path) printed a report: \(r.stdout)")
        }
    }

    @Test func viewRefusesNonFiniteAnglesAndTakesNegativeOnes() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let model = dir + "/m.obj"
        try CLIMedia.write(Array("v -1 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".utf8), to: model)
        for angle in ["nan", "inf", "-inf"] {
            let r = try CLI.run(["view", model, "--yaw", angle, "-o", dir + "/v.png", "--size", "64x48"])
            #expect(r.status != 0 && firstLine(r).contains("--yaw must be a finite number"), "--yaw \(angle): \(r.stderr)")
        }
        let negative = try CLI.run(["view", model, "--yaw", "-30", "-o", dir + "/v.png", "--size", "64x48"])
        #expect(negative.status == 0, "\(negative.stderr)")
    }

    @Test func viewIntoAMissingFolderIsOneLine() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let model = dir + "/m.obj"
        try CLIMedia.write(Array("v -1 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".utf8), to: model)
        let r = try CLI.run(["view", model, "-o", dir + "/missing/o.png", "--size", "64x48"])
        #expect(r.status == 1)
        // (The lens report, "view: no lenses found ...", is information, not an error line.)
        let errors = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("view: ") }
        #expect(errors == ["error: \(dir)/missing/o.png: cannot write: No such file or directory"], "\(r.stderr)")
    }

    @Test func sizeIsRefusedWithAFileInput() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let clip = dir + "/in.mjpeg"
        try CLIMedia.write(try CLIMedia.frame(0), to: clip)
        for command in [["track", "--input", clip, "--json", dir + "/o.json"], ["live", "--input", clip, "--output", dir + "/o.avi"],
                        ["measure", "--input", clip]] {
            let bad = try CLI.run(command + ["--size", "abc"])
            #expect(bad.status != 0 && firstLine(bad).contains("--size must look like 640x480"), "\(command[0]): \(bad.stderr)")
            let ignored = try CLI.run(command + ["--size", "320x240"])
            #expect(ignored.status != 0 && firstLine(ignored).contains("--size applies to a camera"), "\(command[0]): \(ignored.stderr)")
        }
    }

    @Test func aNegativeRateIsNotAMissingValue() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let clip = dir + "/in.mjpeg"
        try CLIMedia.write(try CLIMedia.frame(0), to: clip)
        let convert = try CLI.run(["convert", clip, dir + "/o.avi", "--fps", "-1"])
        #expect(convert.status != 0 && firstLine(convert).contains("--fps must be a positive number"), "\(convert.stderr)")
        let record = try CLI.run(["record", "--output", dir + "/r.avi", "--fps", "-1"])
        #expect(record.status != 0 && firstLine(record).contains("--fps must be in (0, 1000]"), "\(record.stderr)")
    }

    @Test func aDataSetFileThatIsNotTextIsNamed() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write(try CLIMedia.frame(0, width: 96, height: 96), to: dir + "/face.jpg")
        try CLIMedia.write([0xFF, 0xFE, 0xC3, 0x28, 0xA0, 0xA1, 0x00, 0x80], to: dir + "/face.pts")
        let r = try CLI.run(["train", "tracking-confidence", "--data", dir, "--out", dir + "/o.tcnf"])
        #expect(r.status == 1)
        #expect(!r.stderr.contains("NSCocoaErrorDomain") && r.stderr.contains("face.pts: not UTF-8 text"), "\(r.stderr)")
    }

    @Test func anAVIWithAnImpossibleRateIsBlamedOnTheInput() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try CLIMedia.write(try (0..<3).flatMap { try CLIMedia.frame($0) }, to: dir + "/in.mjpeg")
        #expect(try CLI.run(["convert", dir + "/in.mjpeg", dir + "/in.avi"]).status == 0)
        // strh: dwScale at +20 of its body, dwRate at +24; 4294967295/1 fps is more than any writer stores.
        var avi = try CLIMedia.read(dir + "/in.avi")
        let strh = try #require(avi.indices.dropLast(4).first { Array(avi[$0 ..< $0 + 4]) == Array("strh".utf8) })
        for (offset, value) in [(28, UInt32(1)), (32, UInt32.max)] {
            for k in 0..<4 { avi[strh + offset + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
        }
        try CLIMedia.write(avi, to: dir + "/bad.avi")
        let r = try CLI.run(["convert", dir + "/bad.avi", dir + "/out.avi"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("frame rate 4294967295/1") && r.stderr.contains("assuming 30 fps"), "\(r.stderr)")
        #expect(!r.stderr.contains("out.avi"), "the output is blamed: \(r.stderr)")
    }

    @Test func aModelReadingOutsideItsFolderNeedsTheFlag() throws {
        let dir = try CLIMedia.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/model", withIntermediateDirectories: true)
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let positions: [Float] = [-70, 0, 0, 70, 0, 0, 70, 40, 0, -70, 40, 0]
        try CLIMedia.write(positions.flatMap { le($0.bitPattern) } + ([0, 1, 2, 0, 2, 3] as [UInt16]).flatMap { le($0) }, to: dir + "/outside.bin")
        let gltf = """
            {"asset": {"version": "2.0"}, "buffers": [{"uri": "../outside.bin", "byteLength": 60}],
             "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-70, 0, 0], "max": [70, 40, 0]},
                           {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
             "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}
            """
        try CLIMedia.write(Array(gltf.utf8), to: dir + "/model/m.gltf")
        let refused = try CLI.run(["view", dir + "/model/m.gltf", "-o", dir + "/v.png", "--size", "64x48"])
        #expect(refused.status == 1 && refused.stderr.contains("'../outside.bin' is outside the model's folder"), "\(refused.stderr)")
        let allowed = try CLI.run(["view", dir + "/model/m.gltf", "-o", dir + "/v.png", "--size", "64x48", "--allow-outside-uris"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}
