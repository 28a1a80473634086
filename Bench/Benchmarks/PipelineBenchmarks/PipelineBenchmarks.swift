// The whole frame, as `lorgnette live`, `lorgnette bench` and the HTTP preview run it: the
// FramePipeline facade on webcam-like JPEG frames (the demo camera, quality 85), its tracking-only
// mode, the try-on renderer with every catalogue frame on a tracked face, and the output sinks.
// Allocations per frame come from the MallocInterposer (every thread, libjpeg's pools included).
import Benchmark
import Compositor
import FaceDetection
import FaceModel
import Foundation
import GlassesCatalogue
import Imaging
import JPEGCodec
import Landmarks
import Media
import Meshes
import PNGCodec
import Pipeline

let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

func modelPath(_ name: String) -> String { repo.appendingPathComponent("Models/\(name)").path }

/// `count` consecutive demo-camera frames as quality-85 JPEGs (the tracker sees motion, not a still).
func demoJPEGs(width: Int, height: Int, count: Int) -> [[UInt8]] {
    let photo = try! TurboJPEGDecoder().decodeRGB(try! [UInt8](Data(contentsOf: URL(fileURLWithPath: modelPath("demo/astronaut.jpg")))))
    let source = DemoSource(photo: photo, focus: DemoSource.astronautFocus, span: DemoSource.astronautSpan,
                            width: width, height: height, frameCount: count)
    let encoder = TurboJPEGEncoder()
    var frames: [[UInt8]] = []
    while let frame = try! source.nextFrame() {
        guard case .rgb(let rgb) = frame.payload else { fatalError("demo source gives RGB") }
        frames.append(try! encoder.encode(rgb, quality: 85))
    }
    return frames
}

/// Plays `frames` forwards then backwards forever, with timestamps at 30 fps.
final class PingPongStream {
    let frames: [[UInt8]]
    private var index = 0
    init(_ frames: [[UInt8]]) { self.frames = frames }
    func next() -> Frame {
        let period = 2 * (frames.count - 1)
        let k = index % period
        defer { index += 1 }
        return Frame(payload: .jpeg(frames[k < frames.count ? k : period - k]), timestampSeconds: Double(index) / 30, sequence: index)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
    let face = try! MeanFace(contentsOf: modelPath("mean-face.json"))
    let catalogue = try! GlassesCatalogue.load(path: modelPath("frames/catalogue.json"))
    let library = GlassesLibrary(catalogue: catalogue, loader: MeshLoader(decoders: TextureDecoders(jpeg: TurboJPEGDecoder(), png: LibPNGDecoder())), face: face)
    let cascade = try! LandmarkCascade(contentsOf: modelPath("landmarks.lmrk"))
    let detector = HOGFaceDetector(model: try! HOGFaceDetectorModel(contentsOfFile: modelPath("face-detector.fdet")))
    let firstGlasses = try! library.load(nil)

    func pipeline(_ mode: PipelineMode) -> FramePipeline {
        var configuration = PipelineConfiguration()
        configuration.mode = mode
        return FramePipeline(face: face, detector: detector, landmarks: cascade, glasses: firstGlasses,
                             decoder: TurboJPEGDecoder(), encoder: TurboJPEGEncoder(), configuration: configuration)
    }

    for (width, height) in [(640, 480), (1280, 720)] {
        let size = "\(width)x\(height)"
        let jpegs = demoJPEGs(width: width, height: height, count: 90)
        for (label, mode) in [("tracking only (decode gray, track)", PipelineMode.trackingOnly), ("try-on (decode, track, render, encode)", .tryOn)] {
            let stream = PingPongStream(jpegs)
            let p = pipeline(mode)
            for _ in 0..<10 { _ = try! p.process(stream.next()) }  // first detection, buffers
            Benchmark("Pipeline \(label) \(size)") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(try! p.process(stream.next())) }
            }
        }
    }

    // Every catalogue frame drawn on the tracked demo face at 1280x720 (head occluder on), as the
    // pipeline's render stage does it.
    let jpeg720 = demoJPEGs(width: 1280, height: 720, count: 1)[0]
    let tracked = pipeline(.trackingOnly)
    var anchors = try! tracked.process(Frame(payload: .jpeg(jpeg720), timestampSeconds: 0, sequence: 0)).anchors
    for i in 1..<5 { anchors = try! tracked.process(Frame(payload: .jpeg(jpeg720), timestampSeconds: Double(i) / 30, sequence: i)).anchors }
    let intrinsics = tracked.camera!
    let background = try! TurboJPEGDecoder().decodeRGB(jpeg720)
    for entry in catalogue.entries {
        let glasses = try! library.load(entry.id)
        let renderer = TryOnRenderer(fit: glasses.fit)
        var canvas = background
        renderer.render(anchors, intrinsics: intrinsics, into: &canvas)  // sizes the scratch buffers
        Benchmark("Try-on render \(entry.id) (\(glasses.canonical.mesh.triangleCount) triangles) 1280x720") { benchmark in
            for _ in benchmark.scaledIterations {
                canvas = background
                renderer.render(anchors, intrinsics: intrinsics, into: &canvas)
            }
        }
    }

    // Sinks: appending a 640x480 frame to an MJPEG stream and to an AVI file.
    let frame480 = demoJPEGs(width: 640, height: 480, count: 1)[0]
    let folder = FileManager.default.temporaryDirectory.path
    Benchmark("Sink MJPEG write 640x480 frame (\(frame480.count) bytes)") { benchmark in
        let path = folder + "/lorgnette-bench-sink-\(getpid()).mjpeg"
        let sink = try! MJPEGFileSink(path: path)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { try! sink.write(jpeg: frame480, timestampSeconds: Double(i) / 30) }
        benchmark.stopMeasurement()
        try! sink.finish()
        try? FileManager.default.removeItem(atPath: path)
    }
    Benchmark("Sink AVI write 640x480 frame (\(frame480.count) bytes)") { benchmark in
        let path = folder + "/lorgnette-bench-sink-\(getpid()).avi"
        let sink = try! AVIFileSink(path: path, framesPerSecond: 30)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { try! sink.write(jpeg: frame480, timestampSeconds: Double(i) / 30) }
        benchmark.stopMeasurement()
        try! sink.finish()
        try? FileManager.default.removeItem(atPath: path)
    }
}
