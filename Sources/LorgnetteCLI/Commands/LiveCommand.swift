import Annotation
import ArgumentParser
import Capture
import Compositor
import Foundation
import Geometry
import Media
import Inputs
import Pipeline
import PreviewServer
import VirtualCamera

/// `lorgnette live`: the try-on — capture → track → render the chosen glasses on every face →
/// encode → sink.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Virtual try-on: glasses drawn on every tracked face of a camera or video, written as a video.",
        discussion: """
            Input: --device /dev/videoN or --input FILE (\(MediaFactory.inputHelp)); with neither, \
            /dev/video0 when it exists, else the embedded demo (the bundled portrait). \
            --glasses is a catalogue id[:variant] (see `lorgnette catalogue`; default: the first) or a \
            .gltf/.glb/.obj model, a glTF optionally with :VARIANT naming one of its KHR_materials_variants \
            (metric glTF keeps its size; unitless models get --glasses-width mm). \
            The glasses are fitted to the metric mean face (lens plane 12 mm in front of the cornea, \
            temples opened to the head width), follow the tracked 3D head pose and are hidden behind a \
            head occluder. Ctrl-C stops and finishes the output file.
            --http HOST:PORT (e.g. 127.0.0.1:8080; port 0 = any free port, the URL is printed on stderr) \
            also serves the try-on in a browser: the page at /, the MJPEG stream at /stream.mjpg, /status \
            as JSON and POST /frame to switch glasses. With --http no file is written unless -o is given, \
            and without --frames/--seconds a file or demo input plays at its frame rate and starts again \
            at its end, so the preview runs until Ctrl-C.
            --output /dev/videoN writes the try-on to a V4L2 output device, a virtual camera that \
            browsers, Zoom and OBS list like a webcam (make one with `sudo modprobe v4l2loopback \
            exclusive_caps=1 card_label=Lorgnette`; `lorgnette devices` lists output devices): YUYV \
            unless --output-format says i420 or mjpeg, at the input's size and rate; the newest frame \
            is written on a thread of its own, so a slow or absent viewer never holds the try-on back. \
            --input - reads an MJPEG stream from standard input and --output - writes one to standard \
            output (`ffmpeg -f mjpeg -i -`, GStreamer `fdsrc ! jpegparse`); the summary then goes to \
            standard error, and a reader that closes the pipe ends the run cleanly.
            """
    )

    @Option(help: "Camera device (/dev/videoN).")
    var device: String?

    @Option(help: "Input file instead of a camera: \(MediaFactory.inputHelp).")
    var input: String?

    @OptionGroup var glassesOptions: GlassesOptions

    @OptionGroup var badFrameOptions: BadFrameOptions

    @Option(name: [.short, .long], help: "Output: .avi or .mjpeg file, - (MJPEG on standard output) or a V4L2 output device /dev/videoN (default live.avi; none with --http).")
    var output: String?

    @Option(name: .customLong("output-format"), help: "Pixel format for an output device: yuyv (default), i420 or mjpeg.")
    var outputFormat: OutputPixelFormat?

    @Option(help: "Serve the live preview in a browser on HOST:PORT (loopback when only :PORT or PORT is given).")
    var http: String?

    @Option(name: .customLong("http-clients"), help: "Most MJPEG stream viewers at once with --http (the next gets 503).")
    var httpClients = 8

    @Option(help: "Stop after N frames.")
    var frames: Int?

    @Option(help: "Stop after S seconds of input.")
    var seconds: Double?

    @Option(help: "Overlay items, comma-separated: landmarks, pose, metrics, light, fps (or none).")
    var overlay = "none"

    @Option(help: "Camera capture size for --device or /dev/video0 (default \(CaptureSizeOption.defaultSize)).")
    var size: String?


    @OptionGroup var cameraOptions: CameraOptions

    @Option(help: "Light on the glasses: estimated (from each face's skin, spherical harmonics) or fixed (neutral studio light).")
    var light = "estimated"

    @Flag(name: .customLong("no-occlusion"), help: "Do not hide the temples behind the head (inspection).")
    var noOcclusion = false

    @Option(help: "JPEG quality of the output frames.")
    var quality = 85

    func validate() throws {
        if LightingMode(rawValue: light) == nil { throw ValidationError("--light must be fixed or estimated, got '\(light)'") }
        if input != nil && device != nil { throw ValidationError("give --device or --input, not both") }
        try CaptureSizeOption.validate(size, appliesToCamera: input == nil)
        if frames != nil && seconds != nil { throw ValidationError("give --frames or --seconds, not both") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be positive") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
        if let outputPath, case .file = LiveOutputTarget(outputPath), !MediaFactory.hasExtension(outputPath, ["avi", "mjpeg", "mjpg"]) {
            throw ValidationError("--output must be a .avi or .mjpeg file, - or a video output device /dev/videoN, got '\(outputPath)'")
        }
        if outputFormat != nil, outputPath.map(LiveOutputTarget.init).map({ if case .device = $0 { return false } else { return true } }) ?? true {
            throw ValidationError("--output-format applies to a video output device (--output /dev/videoN)")
        }
        if let http {
            do { _ = try PreviewConfiguration.parse(http) } catch let e as PreviewError { throw ValidationError("--http: \(e)") }
        }
        if !(1...256).contains(httpClients) { throw ValidationError("--http-clients must be in 1...256") }
        do { _ = try OverlayItems(list: overlay, allowed: LiveCommand.overlayItems) } catch let e as OverlayError {
            throw ValidationError(e.description)
        }
    }

    func run() throws {
        try reportingErrors("live") {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--output", outputPath)],
                                                     inputs: [input, device, glassesOptions.choice, cameraOptions.camera])
            try live()
        }
    }

    private func openInput() throws -> (FrameSource, String) {
        if let device {
            return (try MediaFactory.openCamera(device, size: size ?? CaptureSizeOption.defaultSize), device)
        }
        if let input { return (try servedSource { try MediaFactory.openSource(input).source }, input) }
        if FileManager.default.fileExists(atPath: "/dev/video0"),
           let camera = try? MediaFactory.openCamera("/dev/video0", size: size ?? CaptureSizeOption.defaultSize) {
            return (camera, "/dev/video0")
        }
        return (try servedSource { try MediaFactory.openSource("demo").source }, "demo")
    }

    /// With --http and no --frames/--seconds, a file or the demo plays in real time and loops (a kiosk);
    /// a pipe plays once.
    private func servedSource(_ open: @escaping () throws -> FrameSource) throws -> FrameSource {
        let loops = http != nil && frames == nil && seconds == nil && (input.flatMap(InputOpener.kind)?.isReopenable ?? true)
        return loops ? try KioskSource(paced: true, open: open) : try open()
    }

    private func live() throws {
        let items = try OverlayItems(list: overlay, allowed: LiveCommand.overlayItems)
        let frameWidth = glassesOptions.widthMM
        let library = try PipelineFactory.glassesLibrary(frameWidthOverrideMM: frameWidth, lensNames: glassesOptions.lensNames,
                                                         allowsFilesOutsideFolder: glassesOptions.allowOutsideURIs)
        let glasses: FittedGlasses
        do { glasses = try library.load(glassesOptions.choice) } catch let e as PipelineError { throw CLIError(e.description) }
        for warning in glasses.warnings { printError("warning: \(warning)") }
        printLenses(glasses.lenses, prefix: "live")
        var configuration = PipelineConfiguration()
        // Files: estimated from a pre-scan unless --camera or --fov is given; cameras and the demo: those or the webcam default.
        configuration.camera = try cameraOptions.choice(input: input)
        configuration.occlusion = !noOcclusion
        configuration.lighting = LightingMode(rawValue: light) ?? .estimated
        configuration.overlay = items
        configuration.jpegQuality = quality
        configuration.measureFaces = http != nil
        let target = outputPath.map(LiveOutputTarget.init)
        // The virtual camera is opened now: a missing, capture-only or busy device fails before the run.
        var virtualCamera: VirtualCameraSink?
        if case .device(let path) = target {
            virtualCamera = try VirtualCameraSink(path: path, formats: outputFormat.map { [$0] } ?? [.yuyv, .i420])
            configuration.keepsImage = true
            configuration.encodesJPEG = http != nil || outputFormat == .mjpeg
        }
        let pipeline = try PipelineFactory.makePipeline(glasses: glasses, face: library.face, configuration: configuration,
                                                        stills: input.map(MediaFactory.isStills) ?? false)

        let preview = try http.map {
            try LivePreview(address: $0, maxClients: httpClients, pipeline: pipeline, frameWidthOverrideMM: frameWidth)
        }
        defer { preview?.stop() }
        if let preview { printError("live: preview at \(preview.url)") }
        let (source, sourceName) = try openInput()
        defer { source.close() }
        if configuration.camera == .estimated {
            // A second opening of a file (or the demo) is scanned; a camera is scanned on its own first frames.
            let isDevice = device != nil || sourceName.hasPrefix("/dev/")
            let prescan = isDevice ? source : try MediaFactory.openSource(sourceName).source
            defer { if !isDevice { prescan.close() } }
            FieldOfViewOption.report(try pipeline.estimateCamera(from: prescan))
        }
        let fit = glasses.fit, canonical = glasses.canonical
        printError(String(format: "live: %@ on %@, frame width %.1f mm (%@), bridge %.1f mm above the pupils, temples opened %.1f° / %.1f°, tilted %.1f° / %.1f°",
                          glasses.name, sourceName, canonical.regions.frameWidth,
                          canonical.scale == .metric ? "metric model" : "scaled to \(Int(frameWidth ?? canonical.regions.frameWidth)) mm",
                          Float(library.face.pupils[0].y) - fit.bridge.y, fit.templeOpeningDegrees.x, fit.templeOpeningDegrees.y,
                          fit.templeTiltDegrees.x, fit.templeTiltDegrees.y))

        var sink: FrameSink?
        Interrupt.install()
        var index = 0, withFace = 0, readerClosed = false, sequence = 0
        var badFrames = BadFrames(source: sourceName, options: badFrameOptions)
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let framesPerSecond = source.info.framesPerSecond ?? 30
        // A failure mid-stream (corrupt frame, unplugged camera) still finishes the file, so what was
        // written stays playable; the error is reported after.
        do {
            while !Interrupt.requested {
                if let frames, index >= frames { break }
                guard let frame = try source.nextFrame() else { break }
                defer { sequence += 1 }
                guard let output = try badFrames.decode(frame: sequence, { try pipeline.process(frame) }) else { continue }
                if let seconds, output.time >= seconds { break }
                preview?.publish(output, pipeline: pipeline)
                if let virtualCamera, let image = output.image {
                    try virtualCamera.send(image: image, jpeg: output.jpeg, framesPerSecond: framesPerSecond)
                } else if sink == nil, let outputPath {
                    sink = try MediaFactory.makeSink(outputPath, framesPerSecond: framesPerSecond,
                                                     followTimestamps: device != nil || sourceName.hasPrefix("/dev/"))
                }
                do {
                    try sink?.write(jpeg: output.jpeg, timestampSeconds: output.time)
                } catch MediaError.readerClosed {
                    // The program reading our standard output is done (`| head -c`, a closed ffplay).
                    readerClosed = true
                    break
                }
                if !output.anchors.isEmpty { withFace += 1 }
                index += 1
            }
        } catch {
            try? sink?.finish()
            try? virtualCamera?.finish()
            throw error
        }
        if !readerClosed { try sink?.finish() }
        try virtualCamera?.finish()
        for issue in source.issues { printError("note: \(issue)") }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        var written = sink == nil ? (outputPath == nil ? "no file" : "no output (no frames)") : outputPath == "-" ? "standard output" : outputPath ?? ""
        if readerClosed { written += " (the reader closed the pipe)" }
        if let virtualCamera, let path = outputPath {
            let counts = virtualCamera.counts
            written = virtualCamera.format.map { "\(path) (\($0)): \(counts.delivered) frames delivered, \(counts.superseded) superseded by newer ones" }
                ?? "\(path): no frames"
        }
        printSummary(String(format: "live: %d frames, faces tracked on %.1f %%, %.1f fps (capture to encode) -> ",
                            index, index > 0 ? 100 * Double(withFace) / Double(index) : 0, index > 0 ? Double(index) / wall : 0) + written + badFrames.summary)
        if Interrupt.requested { throw ExitCode(130) }
        if index == 0 { throw CLIError("\(sourceName): no frames could be read") }
    }

    /// The video file written: `--output`, else live.avi unless the preview is served.
    private var outputPath: String? { output ?? (http == nil ? "live.avi" : nil) }

    /// The items `--overlay` accepts.
    static let overlayItems = ["landmarks", "pose", "metrics", "light", "fps"]
}
