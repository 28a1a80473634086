import Foundation
import Testing

@Suite("lorgnette bench", .enabled(if: CLI.available, "built lorgnette executable not found next to the test bundle"))
struct BenchCommandTests {
    @Test("a short run writes JSON, Markdown and SVG with the floor, both paths and the bars")
    func shortRun() throws {
        let dir = try CLIMedia.temporaryDirectory()
        let result = try CLI.run(["bench", "--frames", "4", "--warmup", "2", "--size", "160x120", "--no-peers",
                                  "--json", dir + "/b.json", "--markdown", dir + "/b.md", "--svg", dir + "/b.svg"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/b.json"))) as? [String: Any])
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run["input"] as? String == "demo")
        #expect(run["width"] as? Int == 160 && run["height"] as? Int == 120)
        #expect(run["frames"] as? Int == 4 && run["warmupFrames"] as? Int == 2)

        func stages(_ path: String) -> [String] {
            ((run[path] as? [String: Any])?["stages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        // Both paths are the same FramePipeline: the try-on renders and encodes, the tracking path does not.
        #expect(Set(["decode", "track", "render", "encode"]).isSubset(of: Set(stages("tryOn"))), "\(stages("tryOn"))")
        #expect(stages("tracking").contains("track"))
        #expect(!stages("tracking").contains("render") && !stages("tracking").contains("encode"), "\(stages("tracking"))")

        let floor = try #require(run["floor"] as? [String: Any])
        let floorTotal = try #require(floor["total"] as? [String: Any])
        let floorP50 = try #require(floorTotal["p50"] as? Double)
        #expect(floorP50 > 0)
        #expect((floor["samples"] as? [Any])?.count == 4)
        let tryOn = try #require(run["tryOn"] as? [String: Any])
        let endToEnd = try #require(tryOn["endToEnd"] as? [String: Any])
        let p50 = try #require(endToEnd["p50"] as? Double), p99 = try #require(endToEnd["p99"] as? Double)
        let max = try #require(endToEnd["max"] as? Double)
        #expect(p50 > 0 && p50 <= p99 && p99 <= max)
        // The demo's face is tracked at this size; its jaw-to-jaw width (what the render's cost follows)
        // is a plausible part of the 160-pixel frame, and the report says it.
        #expect(tryOn["facesTrackedPercent"] as? Double == 100)
        let faceWidth = try #require(tryOn["faceWidthPixels"] as? Double)
        #expect(faceWidth > 20 && faceWidth < 120, "face width \(faceWidth) px")
        // The try-on decodes and encodes the same frames as the floor, so it cannot be cheaper.
        let ratio = try #require(run["tryOnToFloorRatioCPU"] as? Double)
        #expect(ratio > 0.5, "try-on/floor CPU ratio \(ratio)")
        // The floor reuses libjpeg's pools and the output buffer, so a steady frame allocates nothing
        // (at most a rare growth of the buffer); the low count means something only because a probe
        // malloc moved the counter.
        #expect((floor["allocationsPerFrame"] as? Double ?? 99) <= 0.5)
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["allocationCounterVerified"] as? Bool == true)

        let bars = try #require(object["bars"] as? [[String: Any]])
        #expect(bars.contains { ($0["bar"] as? String)?.contains("p99 <= 2x p50") == true })
        let markdown = try String(contentsOfFile: dir + "/b.md", encoding: .utf8)
        #expect(markdown.contains("floor: decode + encode") && markdown.contains("## Bars"))
        #expect(markdown.contains(String(format: "face %.0f px wide", faceWidth)))
        #expect(result.stdout == markdown)
        let svg = try String(contentsOfFile: dir + "/b.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<polyline") && svg.contains("demo 160x120 try-on"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test("bad options, inputs and devices fail with one line, before anything is measured")
    func errors() throws {
        let dir = try CLIMedia.temporaryDirectory()
        // A file that opens as MJPEG but holds no decodable frame, and a camera path that does not exist.
        let garbage = dir + "/garbage.mjpeg"
        try Data([0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 0x55, count: 4000) + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: garbage))
        for arguments in [["bench", "--frames", "0"], ["bench", "--size", "12x9"], ["bench", "--json", dir + "/missing/b.json"],
                          ["bench", "--no-demo"], ["bench", "--input", dir + "/missing.mjpeg", "--frames", "1", "--no-peers"],
                          ["bench", "--input", garbage, "--frames", "2", "--no-peers"],
                          ["bench", "--device", dir + "/no-camera", "--frames", "2", "--no-peers"]] {
            let result = try CLI.run(arguments, timeout: 120)
            #expect(result.status != 0, "\(arguments) exited 0")
            let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("bench: warning") && !$0.hasPrefix("bench: demo") }
            #expect(!lines.isEmpty, "\(arguments): no message")
            #expect(!result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
            // The demo is not benchmarked first only to fail on the input or the device afterwards.
            #expect(!result.stderr.contains("try-on p50"), "\(arguments) measured before failing: \(result.stderr)")
        }
    }
}
