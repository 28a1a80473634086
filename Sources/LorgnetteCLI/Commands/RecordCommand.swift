import ArgumentParser
import Capture
import Foundation
import JPEGCodec
import Media

/// `lorgnette record`: captures from a camera into an MJPEG/AVI file and reports the capture's health and cost.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record from a camera to an AVI or raw MJPEG file.",
        discussion: """
            Negotiates the size, rate and format with the camera (MJPEG preferred and written as \
            it arrives; YUYV and other formats are converted and JPEG-encoded), prints what the \
            driver actually set, and records until --frames or --seconds is reached or Ctrl-C. \
            At the end it prints frames captured, dropped (gaps in the driver's sequence numbers), \
            superseded (skipped to stay on the newest frame) and the measured rate, with the \
            capture overhead per frame (dequeue to hand-off) and the frame age at hand-off \
            (now minus the buffer's timestamp), as p50/p99.
            If the camera fails (unplugged, stalled), what was written stays playable; with \
            --reconnect an unplugged camera is re-opened with back-off and recording continues.
            Output: \(MediaFactory.outputHelp).
            """
    )

    @Option(help: "Camera: /dev/videoN or a stable name such as /dev/v4l/by-id/usb-...-video-index0.")
    var device: String = "/dev/video0"

    @Option(help: "Frame size WxH.")
    var size: String = "640x480"

    @Option(parsing: .unconditional, help: "Frames per second to ask for (the driver may pick another; it is reported).")
    var fps: Double = 30

    @Option(help: "Pixel format: auto (MJPEG, else YUYV, else what libv4l2 converts), mjpeg, yuyv, or a fourcc such as RGB3.")
    var format: String = "auto"

    @Option(help: "Stop after this many frames.")
    var frames: Int?

    @Option(help: "Stop after this many seconds of capture.")
    var seconds: Double?

    @Option(help: "JPEG quality (1-100) for frames that arrive uncompressed.")
    var quality: Int = 90

    @Option(help: "Seconds to wait for a frame before failing.")
    var timeout: Double = 3

    @Flag(help: "Re-open the camera after it is unplugged (back-off 0.1 s doubling to 2 s; gives up after 30 s).")
    var reconnect = false

    @Option(name: .shortAndLong, help: "Output file: .avi or .mjpeg (or a folder).")
    var output: String?

    @Flag(help: "Capture and measure only: frames are handed over and dropped, nothing is encoded or written (a benchmark of capture itself).")
    var discard = false

    func validate() throws {
        if output == nil && !discard { throw ValidationError("give --output FILE (or --discard to only measure)") }
        if output != nil && discard { throw ValidationError("--discard writes nothing; drop --output") }
        if frames != nil && seconds != nil { throw ValidationError("give --frames or --seconds, not both") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be positive") }
        if !(fps > 0 && fps <= 1000) { throw ValidationError("--fps must be in (0, 1000]") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be positive") }
        _ = try Self.parseSize(size)
        _ = try Self.parseFormat(format)
    }

    static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
            throw ValidationError("--size must look like 640x480")
        }
        return (w, h)
    }

    static func parseFormat(_ text: String) throws -> FourCC? {
        switch text.lowercased() {
        case "auto": return nil
        case "mjpeg", "mjpg": return .mjpeg
        case "yuyv", "yuy2": return .yuyv
        case "rgb24", "rgb3": return .rgb24
        default:
            guard let fourcc = FourCC(text) else {
                throw ValidationError("--format must be auto, mjpeg, yuyv or a four-character code such as RGB3")
            }
            return fourcc
        }
    }

    func run() throws {
        try reportingErrors("error") {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--output", output)], inputs: [device])
            try record()
        }
    }

    private func record() throws {
        let (width, height) = try Self.parseSize(size)
        let request = CaptureRequest(width: width, height: height, framesPerSecond: fps,
                                     format: try Self.parseFormat(format), bufferCount: 4, timeoutSeconds: timeout)
        let camera: CameraSource = reconnect
            ? try ReconnectingCamera(path: device, request: request)
            : try V4L2Camera(path: device, request: request)
        defer { camera.close() }
        let opened = camera.format
        printError("recording \(device): \(opened)")
        for note in opened.adjustments { printError("note: \(note)") }

        let sink: FrameSink? = try output.map { try MediaFactory.makeSink($0, framesPerSecond: opened.framesPerSecond ?? fps) }
        Interrupt.install()
        let encoder = TurboJPEGEncoder()
        var overheads: [Double] = []
        var ages: [Double] = []
        var firstTimestamp: Double?
        var failure: Error?
        let wallStart = Date()

        var delivered = 0, readerClosed = false
        while !Interrupt.requested {
            if let frames, delivered >= frames { break }
            let frame: Frame
            do {
                guard let next = try camera.nextFrame() else { break }
                frame = next
            } catch {
                failure = error
                break
            }
            delivered += 1
            if let timing = camera.lastTiming {
                overheads.append(Double(timing.overheadNanoseconds) / 1e6)
                if let age = timing.ageNanoseconds { ages.append(Double(age) / 1e6) }
            }
            let start = firstTimestamp ?? frame.timestampSeconds
            firstTimestamp = start
            if let seconds, frame.timestampSeconds - start >= seconds { break }
            guard let sink else { continue }
            let jpeg: [UInt8]
            switch frame.payload {
            case .jpeg(let bytes): jpeg = bytes
            case .rgb(let image): jpeg = try encoder.encode(image, quality: quality)
            case .gray(let image): jpeg = try encoder.encode(image, quality: quality)
            }
            do { try sink.write(jpeg: jpeg, timestampSeconds: frame.timestampSeconds - start) } catch MediaError.readerClosed { readerClosed = true; break }
        }
        // Finish before reporting a failure: the file must stay playable either way.
        if !readerClosed { try sink?.finish() }
        printIssues(camera.issues)
        printSummary(Self.summary(camera.statistics, written: sink?.framesWritten, output: output,
                           wallSeconds: Date().timeIntervalSince(wallStart), interrupted: Interrupt.requested))
        if let line = Self.timingLine(overheads: overheads, ages: ages) { printSummary(line) }
        if let failure {
            printError("error: \(failure)")
            throw ExitCode.failure
        }
    }

    static func summary(_ s: CaptureStatistics, written: Int?, output: String?, wallSeconds: Double, interrupted: Bool) -> String {
        var line = "captured \(s.delivered) frames, dropped \(s.dropped), superseded \(s.superseded)"
        if s.flaggedError > 0 || s.malformed > 0 { line += ", skipped \(s.flaggedError) error-flagged and \(s.malformed) malformed" }
        if s.reconnects > 0 { line += ", \(s.reconnects) reconnects" }
        line += s.measuredFramesPerSecond.map { ", measured \(String(format: "%.2f", $0)) fps" } ?? ", measured rate n/a"
        if let written, let output { line += "; wrote \(written) frames to \(output)" }
        line += " in \(String(format: "%.2f", wallSeconds)) s"
        if interrupted { line += " (interrupted)" }
        return line
    }

    static func timingLine(overheads: [Double], ages: [Double]) -> String? {
        guard let o = SampleSummary(overheads) else { return nil }
        func ms(_ v: Double) -> String { String(format: "%.3f", v) }
        let age = SampleSummary(ages).map { "p50 \(ms($0.p50)) ms, p99 \(ms($0.p99)) ms" }
            ?? "n/a (the driver's timestamps are not on CLOCK_MONOTONIC)"
        return "capture overhead per frame (dequeue -> hand-off): p50 \(ms(o.p50)) ms, p99 \(ms(o.p99)) ms; "
            + "frame age at hand-off: \(age) (\(o.count) frames)"
    }
}
