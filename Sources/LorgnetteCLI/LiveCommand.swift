import ArgumentParser
import Capture
import Compositor
import FaceDetection
import FaceModel
import FaceTracking
import Foundation
import FrameCatalogue
import Geometry
import Imaging
import JPEGCodec
import Landmarks
import Media
import Meshes
import PNGCodec
import PoseEstimation

/// `lorgnette live`: the try-on — capture → track → render the chosen frame on every face →
/// encode → sink.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Virtual try-on: glasses drawn on every tracked face of a camera or video, written as a video.",
        discussion: """
            Input: --device /dev/videoN or --input FILE (\(MediaFactory.inputHelp)); with neither, \
            /dev/video0 when it exists, else the embedded demo (the bundled portrait). \
            --frame is a catalogue id[:variant] (see `lorgnette catalogue`; default: the first frame) or a \
            .gltf/.glb/.obj model (metric glTF keeps its size; unitless models get --frame-width mm). \
            The glasses are fitted to the metric mean face (lens plane 12 mm in front of the cornea, \
            temples opened to the head width), follow the tracked 3D head pose and are hidden behind a \
            head occluder. Ctrl-C stops and finishes the output file.
            """
    )

    @Option(help: "Camera device (/dev/videoN).")
    var device: String?

    @Option(help: "Input file instead of a camera: \(MediaFactory.inputHelp).")
    var input: String?

    @Option(help: "Glasses: catalogue frame id[:variant] or a .gltf/.glb/.obj model file.")
    var frame: String?

    @Option(name: [.short, .long], help: "Output video: .avi or .mjpeg.")
    var output = "live.avi"

    @Option(help: "Stop after N frames.")
    var frames: Int?

    @Option(help: "Stop after S seconds of input.")
    var seconds: Double?

    @Option(help: "Overlay items, comma-separated: landmarks, pose, metrics, fps (or none).")
    var overlay = "none"

    @Option(help: "Camera capture size for --device.")
    var size = "640x480"

    @Option(name: .customLong("frame-width"), help: "Frame width in mm for models without real-world units.")
    var frameWidth: Float?

    @Option(help: "Horizontal field of view of the camera in degrees (default \(Int(CameraIntrinsics.defaultHorizontalFOVDegrees))).")
    var fov: Double?

    @Flag(name: .customLong("no-occlusion"), help: "Do not hide the temples behind the head (inspection).")
    var noOcclusion = false

    @Option(help: "JPEG quality of the output frames.")
    var quality = 85

    func validate() throws {
        if input != nil && device != nil { throw ValidationError("give --device or --input, not both") }
        if frames != nil && seconds != nil { throw ValidationError("give --frames or --seconds, not both") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be positive") }
        if let fov, !(fov > 1 && fov < 179) { throw ValidationError("--fov must be between 1 and 179 degrees") }
        if let frameWidth, !(frameWidth > 10 && frameWidth < 1000) { throw ValidationError("--frame-width must be 10...1000 mm") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100") }
        if !MediaFactory.hasExtension(output, ["avi", "mjpeg", "mjpg"]) {
            throw ValidationError("--output must be a .avi or .mjpeg file, got '\(output)'")
        }
        _ = try LiveOverlay(list: overlay)
    }

    func run() throws {
        do {
            try live()
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("live: \(error)")
            throw ExitCode.failure
        }
    }

    /// The glasses mesh and, for catalogue frames, their declared width.
    private func loadGlasses() throws -> (mesh: Mesh, width: Float?, name: String) {
        let loader = MeshLoader(decoders: TextureDecoders(jpeg: TurboJPEGDecoder(), png: ZlibPNGDecoder()))
        if let frame, MeshLoader.supportedExtensions.contains((frame as NSString).pathExtension.lowercased()) {
            do { return (try loader.load(path: frame), nil, (frame as NSString).lastPathComponent) } catch let e as MeshError {
                throw CLIError(e.description)
            }
        }
        if let frame, FileManager.default.fileExists(atPath: frame) {
            throw CLIError("\(frame): unsupported model format (expected .gltf, .glb or .obj)")
        }
        do {
            let catalogue = try FrameCatalogue.load(path: try ModelsDirectory.file("frames/catalogue.json").path)
            guard let spec = frame ?? catalogue.entries.first?.id else { throw CLIError("the frame catalogue is empty") }
            let (mesh, width) = try catalogue.resolve(spec, loader: loader)
            return (mesh, width, spec)
        } catch let e as CatalogueError {
            throw CLIError(e.description)
        } catch let e as MeshError {
            throw CLIError(e.description)
        }
    }

    private func openInput() throws -> (FrameSource, String) {
        if let device {
            let (w, h) = try RecordCommand.parseSize(size)
            return (try V4L2Camera(path: device, request: CaptureRequest(width: w, height: h, framesPerSecond: 30)), device)
        }
        if let input { return (try MediaFactory.openSource(input).source, input) }
        if FileManager.default.fileExists(atPath: "/dev/video0"),
           let camera = try? V4L2Camera(path: "/dev/video0", request: CaptureRequest(width: 640, height: 480, framesPerSecond: 30)) {
            return (camera, "/dev/video0")
        }
        return (try MediaFactory.openSource("demo").source, "demo")
    }

    private func live() throws {
        let items = try LiveOverlay(list: overlay)
        let (mesh, declaredWidth, frameName) = try loadGlasses()
        for warning in mesh.warnings { printError("warning: \(warning)") }
        let canonical = GlassesNormalizer.normalize(mesh, declaredWidthMM: frameWidth ?? declaredWidth)
        guard canonical.mesh.bounds != nil else { throw CLIError("\(frameName): model is empty") }
        let face = try MeanFace(contentsOf: try ModelsDirectory.file("mean-face.json").path)
        let fit = GlassesFit(glasses: canonical, face: face)
        let renderer = TryOnRenderer(fit: fit)
        renderer.occlusion = !noOcclusion

        let cascade = try LandmarkCascade(contentsOf: try ModelsDirectory.file("landmarks.lmrk").path)
        let detector = HOGFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: try ModelsDirectory.file("face-detector.fdet").path))

        let (source, sourceName) = try openInput()
        defer { source.close() }
        printError(String(format: "live: %@ on %@, frame width %.1f mm (%@), bridge %.1f mm above the pupils, temples opened %.1f° / %.1f°, tilted %.1f° / %.1f°",
                          frameName, sourceName, canonical.regions.frameWidth,
                          canonical.scale == .metric ? "metric model" : "scaled to \(Int(frameWidth ?? declaredWidth ?? GlassesNormalizer.defaultFrameWidthMM)) mm",
                          Float(face.pupils[0].y) - fit.bridge.y, fit.templeOpeningDegrees.x, fit.templeOpeningDegrees.y,
                          fit.templeTiltDegrees.x, fit.templeTiltDegrees.y))

        let decoder = TurboJPEGDecoder()
        let encoder = TurboJPEGEncoder()
        var tracker: FaceTracker?
        var sink: FrameSink?
        Interrupt.install()
        var index = 0, withFace = 0
        var firstTime: Double?
        let wallStart = DispatchTime.now().uptimeNanoseconds
        var recent: [Double] = []
        var lastTick = wallStart
        while !Interrupt.requested {
            if let frames, index >= frames { break }
            guard let frame = try source.nextFrame() else { break }
            let t0 = firstTime ?? frame.timestampSeconds
            firstTime = t0
            let time = frame.timestampSeconds - t0
            if let seconds, time >= seconds { break }
            var canvas: RGBImage
            switch frame.payload {
            case .jpeg(let bytes):
                canvas = RGBImage(width: 1, height: 1)
                try decoder.decodeRGB(bytes, scale: .full, into: &canvas)
            case .rgb(let image): canvas = image
            case .gray(let image): canvas = RGBImage(gray: image)
            }
            let gray = GrayImage(luma: canvas)
            if tracker == nil {
                let intrinsics = fov.map { CameraIntrinsics(horizontalFOVDegrees: $0, width: gray.width, height: gray.height) }
                    ?? .defaultWebcam(width: gray.width, height: gray.height)
                tracker = FaceTracker(detector: detector, landmarkModel: cascade, poseEstimator: FacePoseEstimator(face: face),
                                      camera: intrinsics, configuration: FaceTrackerConfiguration())
            }
            let anchors = tracker!.process(gray, timestampSeconds: time).filter { $0.state != .lost }
            if !anchors.isEmpty { withFace += 1 }
            renderer.render(anchors, intrinsics: tracker!.camera, into: &canvas)
            let now = DispatchTime.now().uptimeNanoseconds
            recent.append(Double(now - lastTick) / 1e9)
            lastTick = now
            if recent.count > 30 { recent.removeFirst() }
            let fps = Double(recent.count) / max(recent.reduce(0, +), 1e-9)
            items.draw(anchors, on: &canvas, camera: tracker!.camera, face: face, fit: fit, fps: fps)
            if sink == nil {
                sink = try MediaFactory.makeSink(output, framesPerSecond: source.info.framesPerSecond ?? 30,
                                                 followTimestamps: device != nil || sourceName.hasPrefix("/dev/"))
            }
            try sink!.write(jpeg: try encoder.encode(canvas, quality: quality), timestampSeconds: time)
            index += 1
        }
        try sink?.finish()
        for issue in source.issues { printError("note: \(issue)") }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        print(String(format: "live: %d frames, faces tracked on %.1f %%, %.1f fps (capture to encode) -> %@",
                     index, index > 0 ? 100 * Double(withFace) / Double(index) : 0, index > 0 ? Double(index) / wall : 0,
                     sink == nil ? "no output (no frames)" : output))
        if Interrupt.requested { throw ExitCode(130) }
    }
}

/// What `lorgnette live --overlay` draws over the try-on.
struct LiveOverlay {
    var landmarks = false, pose = false, metrics = false, fps = false

    init(list: String) throws {
        for item in list.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            switch item {
            case "landmarks": landmarks = true
            case "pose": pose = true
            case "metrics": metrics = true
            case "fps": fps = true
            case "none": break
            default: throw CLIError("--overlay: unknown item '\(item)' (expected landmarks, pose, metrics, fps or none)")
            }
        }
    }

    /// Landmarks and pose axes as `track` draws them; metrics: per face its id, head angles,
    /// distance and the fitted frame's width; fps: the whole pipeline's rate over the last 30 frames.
    func draw(_ anchors: [FaceAnchor], on image: inout RGBImage, camera: CameraIntrinsics, face: MeanFace, fit: GlassesFit, fps rate: Double) {
        var track = try! TrackOverlay(list: "none")
        track.landmarks = landmarks
        track.pose = pose
        TrackOverlay.draw(anchors, on: &image, items: track, camera: camera, face: face, fps: 0)
        if metrics {
            for a in anchors {
                let r = a.rotationDegrees
                let x = Int(a.box.x), y = Int(a.box.y + a.box.height) + 4
                image.drawText(String(format: "#%d pitch %.0f yaw %.0f roll %.0f  %.0f mm  frame %.0f mm",
                                      a.id, r.x, r.y, r.z, a.translationMM.z, fit.regions.frameWidth),
                               atX: max(0, min(x, image.width - 8)), y: max(0, min(y, image.height - 10)), color: .white)
            }
        }
        if fps {
            image.drawText(String(format: "%.0f fps", rate), atX: 4, y: 4, color: .white, scale: 2)
        }
    }
}
