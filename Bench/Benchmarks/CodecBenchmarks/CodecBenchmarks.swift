// The JPEG codec floor: every later stage's cost is reported as a ratio to these numbers.
import Benchmark
import Foundation
import Imaging
import JPEGCodec
import Media
import VirtualCamera

/// A webcam-like frame: the bundled portrait through the demo camera, JPEG quality 85, 4:2:0.
func demoFrame(width: Int, height: Int) -> (rgb: RGBImage, jpeg: [UInt8]) {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let photoBytes = try! [UInt8](Data(contentsOf: repo.appendingPathComponent("Models/demo/astronaut.jpg")))
    let photo = try! TurboJPEGDecoder().decodeRGB(photoBytes)
    let source = DemoSource(photo: photo, focus: DemoSource.astronautFocus, span: DemoSource.astronautSpan,
                            width: width, height: height, frameCount: 1)
    guard case .rgb(let rgb) = try! source.nextFrame()!.payload else { fatalError("demo source gives RGB") }
    return (rgb, try! TurboJPEGEncoder().encode(rgb, quality: 85))
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )

    for (width, height) in [(640, 480), (1280, 720)] {
        let size = "\(width)x\(height)"
        let frame = demoFrame(width: width, height: height)
        let decoder = TurboJPEGDecoder()
        let encoder = TurboJPEGEncoder()
        var rgb = RGBImage(width: 0, height: 0)
        var gray = GrayImage(width: 0, height: 0)
        // Warm the reusable outputs so the steady state, not the first allocation, is measured.
        try! decoder.decodeRGB(frame.jpeg, scale: .full, into: &rgb)

        Benchmark("JPEG decode RGB \(size)") { benchmark in
            for _ in benchmark.scaledIterations { try! decoder.decodeRGB(frame.jpeg, scale: .full, into: &rgb) }
        }
        Benchmark("JPEG decode gray \(size)") { benchmark in
            for _ in benchmark.scaledIterations { try! decoder.decodeGray(frame.jpeg, scale: .full, into: &gray) }
        }
        Benchmark("JPEG decode gray 1/2 \(size)") { benchmark in
            for _ in benchmark.scaledIterations { try! decoder.decodeGray(frame.jpeg, scale: .half, into: &gray) }
        }
        Benchmark("JPEG encode RGB q85 \(size)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! encoder.encode(frame.rgb, quality: 85)) }
        }

        // The virtual camera (issue 26): what `live --output /dev/videoN` adds to the capture loop per
        // frame: the YUYV (or I420) packing on the loop's thread and the hand-off to the writer thread,
        // whose write(2) (here to /dev/null, in real use v4l2loopback's copy) runs beside the loop.
        // Bar: <= 1 ms per 640x480 frame. (With only a raw consumer the JPEG encode above is skipped.)
        var packed: [UInt8] = []
        Benchmark("YUYV pack \(size)") { benchmark in
            for _ in benchmark.scaledIterations { YUVPacking.yuyv(frame.rgb, into: &packed) }
        }
        Benchmark("I420 pack \(size)") { benchmark in
            for _ in benchmark.scaledIterations { YUVPacking.i420(frame.rgb, into: &packed) }
        }
        Benchmark("Virtual camera send YUYV \(size)") { benchmark in
            let null = open("/dev/null", O_WRONLY)
            let writer = LatestFrameWriter(name: "bench") { bytes in _ = bytes.withUnsafeBytes { write(null, $0.baseAddress, $0.count) } }
            for _ in benchmark.scaledIterations { try! writer.submit { YUVPacking.yuyv(frame.rgb, into: &$0) } }
            try! writer.finish()
            close(null)
        }
    }
}
