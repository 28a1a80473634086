import ArgumentParser
import Foundation
import Inputs
import Imaging
import JPEGCodec
import Media

/// `lorgnette info FILE`: what a video or image set holds and what is wrong with it.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show frames, size, frame rate, duration, codec and defects of a video or image folder.",
        discussion: """
            Reads every frame and decodes it (at 1/8 scale, which still reads all entropy-coded \
            data) to find frames that fail to decode, frames decoded with corrupt-data warnings \
            and frames without Huffman tables; container defects (junk between frames, a \
            truncated last frame or file, a missing index) are listed as issues.
            Input: \(MediaFactory.inputHelp).
            """
    )

    @Argument(help: "Video file, photo (JPEG, PNG, PGM/PPM) or folder of images.")
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Flag(name: .customLong("no-decode"), help: "Only parse the container; do not decode frames.")
    var noDecode = false

    /// Everything `info` reports; the JSON output is this structure.
    struct Report: Codable {
        var file: String
        var container: String
        var codec: String
        var frames: Int
        var width: Int?
        var height: Int?
        /// Other frame sizes seen, as "WxH: count", when frames differ in size.
        var otherSizes: [String]
        var fps: Double?
        var fpsSource: String
        var durationSeconds: Double?
        var bytes: Int?
        var decodeChecked: Bool
        var framesFailingDecode: Int
        var framesWithDecodeWarnings: Int
        var framesWithoutHuffmanTables: Int
        var issues: [String]
    }

    func run() throws {
        try reportingErrors("error") {
            let report = try inspect()
            try requireReadableFrames(report)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                printText(report)
            }
        }
    }

    private func inspect() throws -> Report {
        let (source, kind) = try MediaFactory.openSource(file)
        defer { source.close() }
        let decodeCheck = FrameDecodeCheck(decoder: TurboJPEGDecoder())
        var frames = 0, failing = 0, warned = 0, noDHT = 0
        var sizes: [String: Int] = [:]
        var firstTime: Double?, lastTime = 0.0
        var problems: [String] = []

        while let frame = try source.nextFrame() {
            frames += 1
            if firstTime == nil { firstTime = frame.timestampSeconds }
            lastTime = frame.timestampSeconds
            let bytes: [UInt8]
            switch frame.payload {
            case .jpeg(let compressed): bytes = compressed
            case .rgb(let image): sizes["\(image.width)x\(image.height)", default: 0] += 1; continue
            case .gray(let image): sizes["\(image.width)x\(image.height)", default: 0] += 1; continue
            }
            if let header = JPEGFrameHeader(bytes) { sizes["\(header.width)x\(header.height)", default: 0] += 1 }
            if !JPEGHuffmanTables.hasHuffmanTables(bytes) { noDHT += 1 }
            if noDecode { continue }
            switch decodeCheck.check(bytes) {
            case .clean: break
            case .warnings(let count):
                warned += 1
                if problems.count < 20 { problems.append("frame \(frame.sequence) decodes with \(count) corrupt-data warnings") }
            case .fails(let error):
                failing += 1
                if problems.count < 20 { problems.append("frame \(frame.sequence) does not decode: \(error)") }
            }
        }

        let info = source.info
        let main = sizes.max { $0.value < $1.value }?.key
        let mainSize = main.map { $0.split(separator: "x").compactMap { Int($0) } }
        var container = kind.rawValue
        if let avi = source as? AVIFileSource {
            container = "AVI" + (avi.isOpenDML ? " (OpenDML)" : "") + ", frames from \(avi.indexSource)"
        } else if let folder = source as? ImageFolderSource, kind == .imageFolder {
            container += " (\(folder.files.count) files)"
        }
        let fps = info.framesPerSecond
        var duration: Double?
        if let fps, let firstTime, frames > 0 { duration = lastTime - firstTime + 1 / fps }
        return Report(
            file: file, container: container, codec: info.codec, frames: frames,
            width: mainSize?.first ?? info.width, height: mainSize?.last ?? info.height,
            otherSizes: sizes.filter { $0.key != main }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" },
            fps: fps, fpsSource: fpsSource(source),
            durationSeconds: duration, bytes: fileBytes(file),
            decodeChecked: !noDecode,
            framesFailingDecode: failing, framesWithDecodeWarnings: warned, framesWithoutHuffmanTables: noDHT,
            issues: source.issues + problems)
    }

    /// `info` answers "is this a video or a photo I can use?": nothing readable in it (an empty or
    /// text `.jpg`, a folder without images such as `/etc`, a photo no decoder reads) is a failure,
    /// one line saying why, not a report of 0 frames with exit status 0.
    private func requireReadableFrames(_ r: Report) throws {
        let why = r.issues.first.map { ": \($0)" } ?? ""
        if r.frames == 0 {
            throw CLIError(MediaFactory.isDirectory(file) ? "\(file): no images in this folder\(why)" : "\(file): no frames could be read\(why)")
        }
        if r.decodeChecked && r.framesFailingDecode == r.frames {
            throw CLIError("\(file): none of its \(r.frames) frame\(r.frames == 1 ? "" : "s") decodes\(why)")
        }
    }

    private func fpsSource(_ source: FrameSource) -> String {
        switch source {
        case is AVIFileSource: return "AVI header"
        case is MJPEGStreamSource:
            return FrameTimeSidecar.lookUp(videoPath: file) != nil ? "videos.json sidecar" : "assumed: raw MJPEG has no timing"
        default: return "assumed: images have no timing"
        }
    }

    private func fileBytes(_ path: String) -> Int? {
        guard !MediaFactory.isDirectory(path) else { return nil }
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
    }

    private func printText(_ r: Report) {
        func row(_ key: String, _ value: String) { print((key + ":").padding(toLength: 11, withPad: " ", startingAt: 0) + value) }
        row("file", r.file)
        row("container", r.container)
        row("codec", r.codec)
        row("frames", "\(r.frames)")
        if let w = r.width, let h = r.height {
            var also = ""
            if r.otherSizes.count > 4 {
                let frames = r.otherSizes.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
                also = " (and \(r.otherSizes.count) other sizes in \(frames) frames)"
            } else if !r.otherSizes.isEmpty {
                also = " (also \(r.otherSizes.joined(separator: ", ")))"
            }
            row("size", "\(w)x\(h)" + also)
        }
        if let fps = r.fps { row("fps", "\(formatRate(fps)) (\(r.fpsSource))") }
        if let d = r.durationSeconds { row("duration", String(format: "%.3f s", d)) }
        if let b = r.bytes { row("bytes", "\(b) (\(formatBytes(b)))") }
        if r.decodeChecked {
            row("decode", "\(r.frames - r.framesFailingDecode) ok, \(r.framesFailingDecode) failed, \(r.framesWithDecodeWarnings) with warnings")
        }
        row("no DHT", "\(r.framesWithoutHuffmanTables) frames without Huffman tables" + (r.framesWithoutHuffmanTables > 0 ? " (standard tables assumed)" : ""))
        row("issues", r.issues.isEmpty ? "none" : "\(r.issues.count)")
        for issue in r.issues { print("  - \(issue)") }
    }
}
