// Where untrusted bytes are parsed (issue 25, item 2): media containers, image headers, model
// files and meshes. These modules build with Swift's checks on (-O, not -Ounchecked); the numbers
// here are the receipt that it cost nothing measurable (see README.md, "Checked parsers").
import Benchmark
import Foundation
import Imaging
import Inputs
import JPEGCodec
import Landmarks
import Media
import Meshes
import ModelFormat
import PNGCodec

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let sharedData = repository.deletingLastPathComponent().appendingPathComponent("shared/data")

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 500
    )

    // MJPEG: the marker-walking splitter over a whole 8.3 MB clip (file in the page cache).
    let clip = sharedData.appendingPathComponent("videos/liveportrait_d3.mjpeg").path
    if FileManager.default.fileExists(atPath: clip) {
        Benchmark("MJPEG split liveportrait_d3 (8.3 MB, every frame)", configuration: .init(maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations {
                let source = try! MJPEGStreamSource(path: clip, framesPerSecond: 30, useSidecar: false)
                var frames = 0
                while let frame = try! source.nextFrame() { frames += 1; blackHole(frame) }
                source.close()
                blackHole(frames)
            }
        }
    }

    // AVI: index parse and frame reads of a 300-frame 640x480 recording written by our sink.
    let jpeg = try! TurboJPEGEncoder().encode(RGBImage(width: 640, height: 480), quality: 85)
    let aviPath = NSTemporaryDirectory() + "lorgnette-parser-bench.avi"
    let sink = try! AVIFileSink(path: aviPath, framesPerSecond: 30)
    for i in 0..<300 { try! sink.write(jpeg: jpeg, timestampSeconds: Double(i) / 30) }
    try! sink.finish()
    Benchmark("AVI open + read 300 frames (idx1)", configuration: .init(maxIterations: 200)) { benchmark in
        for _ in benchmark.scaledIterations {
            let source = try! AVIFileSource(path: aviPath)
            while let frame = try! source.nextFrame() { blackHole(frame) }
            source.close()
        }
    }

    // Photos: the header read and decode behind every photo input.
    let photo = try! [UInt8](Data(contentsOf: repository.appendingPathComponent("Models/demo/astronaut.jpg")))
    let photos = PhotoDecoder()
    Benchmark("Photo size from header (JPEG)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! photos.uprightSize(of: photo)) }
    }
    Benchmark("Photo decode (JPEG, PhotoDecoder)", configuration: .init(maxIterations: 100)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! photos.payload(of: photo)) }
    }
    var gray = GrayImage(width: 640, height: 480)
    for y in 0..<480 { for x in 0..<640 { gray[x, y] = UInt8(truncatingIfNeeded: x ^ y) } }
    let png = try! LibPNGEncoder.encode(gray)
    let pngDecoder = LibPNGDecoder()
    Benchmark("PNG decode 640x480 gray") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! pngDecoder.decodePNG(png)) }
    }

    // Model files: the archive reader under the landmark model, and meshes.
    let landmarks = repository.appendingPathComponent("Models/landmarks.lmrk").path
    let landmarkBytes = try! [UInt8](Data(contentsOf: URL(fileURLWithPath: landmarks)))
    Benchmark("Model archive parse landmarks.lmrk", configuration: .init(maxIterations: 100)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! ModelArchive(bytes: landmarkBytes, expectedKind: LandmarkCascade.archiveKind, supportedVersions: LandmarkCascade.supportedVersions))
        }
    }
    let loader = MeshLoader(decoders: TextureDecoders(jpeg: TurboJPEGDecoder(), png: LibPNGDecoder()))
    let models = [("GLB facefit_glasses1 (1.2 MB)", sharedData.appendingPathComponent("glasses/facefit_glasses1/glasses1.glb").path),
                  ("OBJ sunglasses (0.9 MB)", sharedData.appendingPathComponent("glasses/khronos_sunglasses/SunglassesKhronos_derived.obj").path),
                  ("OBJ catalogue round-47", repository.appendingPathComponent("Models/frames/round-47-21-145.obj").path)]
    for (name, path) in models where FileManager.default.fileExists(atPath: path) {
        Benchmark("Mesh load \(name)", configuration: .init(maxIterations: 100)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! loader.load(path: path)) }
        }
    }
}
