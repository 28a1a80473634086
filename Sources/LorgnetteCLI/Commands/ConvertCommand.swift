import ArgumentParser
import Foundation
import Imaging
import JPEGCodec
import Media

/// `lorgnette convert IN OUT`: copies frames between raw MJPEG, AVI and JPEG folders.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert video between raw MJPEG, MJPEG AVI and folders of JPEG images.",
        discussion: """
            Frames are copied as they are (no re-encoding) unless --quality is given; frames \
            without Huffman tables (webcam MJPEG) get the standard tables. AVI output is constant \
            frame rate at the input's rate (or --fps) and stays playable if the run is killed. \
            Ctrl-C stops reading and finishes the output cleanly; a second Ctrl-C quits at once.
            Input:  \(MediaFactory.inputHelp).
            Output: \(MediaFactory.outputHelp).
            """
    )

    @Argument(help: "Input file or folder.")
    var input: String

    @Argument(help: "Output file or folder.")
    var output: String

    // Unconditional: `--fps -1` reaches validate() ("must be positive") instead of being taken
    // for a flag ("Missing value").
    @Option(parsing: .unconditional, help: "Frames per second of the output, overriding the input's timing (e.g. 29.97).")
    var fps: Double?

    @Option(help: "Decode and re-encode every frame at this JPEG quality (1-100) instead of copying it.")
    var quality: Int?

    @Option(name: .customLong("max-frames"), help: "Stop after this many frames.")
    var maxFrames: Int?

    func validate() throws {
        if let fps, !(fps.isFinite && fps >= 0.001 && fps <= 1_000_000) {
            throw ValidationError("--fps must be a positive number of frames per second")
        }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
        if let maxFrames, maxFrames < 0 { throw ValidationError("--max-frames must not be negative") }
    }

    func run() throws {
        try reportingErrors("error") {
            try convert()
        }
    }

    private func convert() throws {
        try OutputSafety.refuseOverwritingInputs(outputs: [("output", output)], inputs: [input])

        let started = Date()
        let (source, _) = try MediaFactory.openSource(input, framesPerSecond: fps)
        defer { source.close() }
        let rate = fps ?? source.info.framesPerSecond ?? 30
        guard var frame = try source.nextFrame() else {
            printIssues(source.issues)
            throw CLIError("\(input): no frames to convert")
        }
        let sink = try MediaFactory.makeSink(output, framesPerSecond: rate)
        Interrupt.install()

        let transcoder = FrameTranscoder(decoder: TurboJPEGDecoder(), encoder: TurboJPEGEncoder(), quality: quality)
        var skipped = 0
        var encodedRaw = false
        var width: Int?, height: Int?
        var readerClosed = false
        while true {
            if let maxFrames, sink.framesWritten >= maxFrames { break }
            if Interrupt.requested { break }
            let jpeg: [UInt8]
            switch try transcoder.jpeg(for: frame) {
            case .jpeg(let bytes, let encoded):
                jpeg = bytes
                encodedRaw = encodedRaw || encoded
            case .undecodable(let error):
                printError("warning: frame \(frame.sequence) does not decode (\(error)); skipped")
                skipped += 1
                jpeg = []
            }
            if !jpeg.isEmpty {
                do { try sink.write(jpeg: jpeg, timestampSeconds: frame.timestampSeconds) } catch MediaError.readerClosed { readerClosed = true; break }
                if width == nil, let header = JPEGFrameHeader(jpeg) { (width, height) = (header.width, header.height) }
            }
            if Interrupt.requested { break }
            guard let next = try source.nextFrame() else { break }
            frame = next
        }
        if !readerClosed { try sink.finish() }
        printIssues(source.issues)

        let seconds = Date().timeIntervalSince(started)
        var line = "converted \(sink.framesWritten) frames: \(input) -> \(output)"
        if let width, let height { line += ", \(width)x\(height)" }
        line += " at \(formatRate(rate)) fps"
        if let bytes = outputBytes(output) { line += ", \(formatBytes(bytes))" }
        line += String(format: " in %.2f s", seconds)
        if let quality {
            line += ", re-encoded at quality \(quality)"
        } else {
            line += encodedRaw ? ", encoded at quality 90" : ", copied"
        }
        if skipped > 0 { line += ", \(skipped) undecodable frames skipped" }
        if !source.issues.isEmpty { line += ", \(source.issues.count) input issues" }
        if Interrupt.requested { line += " (interrupted; output finished)" }
        if readerClosed { line += " (the reader closed the pipe)" }
        printSummary(line)
    }

    private func outputBytes(_ path: String) -> Int? {
        if MediaFactory.isDirectory(path) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.reduce(0) { sum, name in
                let attrs = try? FileManager.default.attributesOfItem(atPath: (path as NSString).appendingPathComponent(name))
                return sum + ((attrs?[.size] as? NSNumber)?.intValue ?? 0)
            }
        }
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
    }
}
