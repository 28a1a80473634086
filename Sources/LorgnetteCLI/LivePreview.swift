import Dispatch
import Foundation
import FaceTracking
import FacialMetrics
import LightEstimation
import JPEGCodec
import Media
import Meshes
import Pipeline
import PreviewServer

/// `live --http`: the preview server composed with the try-on pipeline. The capture loop calls
/// `publish` once per frame (never waits on the network); the server's handlers call into
/// `LivePreviewControl` to list, render and switch frames.
final class LivePreview {
    let server: PreviewServer
    let url: String

    /// Starts serving on `address` (`HOST:PORT`, port 0 = any free port).
    init(address: String, maxClients: Int, pipeline: FramePipeline, frameWidthOverrideMM: Float?) throws {
        let (host, port) = try PreviewConfiguration.parse(address)
        let library = try PipelineFactory.glassesLibrary(frameWidthOverrideMM: frameWidthOverrideMM)
        let control = LivePreviewControl(library: library, pipeline: pipeline)
        server = PreviewServer(configuration: PreviewConfiguration(host: host, port: port, maxStreamClients: maxClients), control: control)
        let bound = try server.startBlocking()
        url = "http://\(host.contains(":") ? "[\(host)]" : host):\(bound)/"
    }

    func publish(_ output: PipelineOutput, pipeline: FramePipeline) {
        let faces = output.anchors.map { a in
            EngineState.Face(id: a.id, state: "\(a.state)", pitch: a.rotationDegrees.x, yaw: a.rotationDegrees.y,
                             roll: a.rotationDegrees.z, distanceMM: a.translationMM.z)
        }
        let state = EngineState(frameIndex: output.index, time: output.time, width: output.width, height: output.height,
                                fps: pipeline.recentFramesPerSecond, latencyMs: output.timings.total * 1000,
                                stagesMs: output.timings.stages.map { .init(name: $0.name, ms: $0.seconds * 1000) },
                                glasses: output.glassesName, selectedGlasses: pipeline.glassesName,
                                tracking: .init(faces: faces), metrics: output.measurement.map(Self.metrics),
                                light: Self.light(of: output))
        server.publish(jpeg: output.jpeg, state: state)
    }

    func stop() { server.stop() }

    /// The light estimated on the largest tracked face.
    static func light(of output: PipelineOutput) -> EngineState.Light? {
        guard let face = output.anchors.max(by: { $0.box.width < $1.box.width }), let e = output.lights.first(where: { $0.faceID == face.id })?.estimate else { return nil }
        let towards = e.towardsLight
        return EngineState.Light(ambientIntensity: Double(e.ambientIntensity), colorTemperatureK: Double(e.ambientColorTemperature),
                                 towardsLight: [Double(towards.x), Double(towards.y), Double(towards.z)],
                                 primaryIntensity: Double(e.primaryLightIntensity))
    }

    static func metrics(_ m: MeasurementReport) -> EngineState.Metrics {
        EngineState.Metrics(pdMM: m.pdFar.value, pdUncertaintyMM: m.pdFar.plusMinus, nearPdMM: m.pd.value,
                            templeWidthMM: m.templeWidth.value, recommendedSize: m.recommendedSize?.code,
                            sizeLabel: m.recommendedSize?.label, framesUsed: m.framesUsed)
    }
}

/// The catalogue, thumbnails and glasses switching over the pipeline. `GlassesLibrary` and the
/// portraits are not thread-safe, so requests take turns on one lock (thumbnails are cached by the
/// server, switching is rare).
final class LivePreviewControl: PreviewControl, @unchecked Sendable {
    let frames: [PreviewFrame]
    private let library: GlassesLibrary
    private let pipeline: FramePipeline
    private let lock = NSLock()
    static let thumbnailSize = (width: 304, height: 152)

    init(library: GlassesLibrary, pipeline: FramePipeline) {
        self.library = library
        self.pipeline = pipeline
        frames = (library.catalogue?.entries ?? []).map { entry in
            PreviewFrame(id: entry.id, name: entry.name, size: entry.size,
                         variants: entry.variants.map { .init(id: $0.id, name: $0.name, color: $0.frameColor) }
                             + (entry.modelVariants ?? []).map { .init(id: $0, name: $0) })
        }
    }

    /// The frame a little from the side (20° yaw) on the viewer's neutral backdrop, as a JPEG. The
    /// turntable fits the whole bounding sphere (temples included) into the short side; the front is
    /// what a shopper compares, so the camera moves in until the front fills the wide thumbnail.
    func thumbnail(_ spec: String) throws -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        let glasses = try library.load(spec)
        guard let portrait = GlassesPortrait(glasses.canonical) else { throw PipelineError("\(spec): model is empty") }
        let (w, h) = Self.thumbnailSize
        let image = portrait.picture(yawDegrees: 20, width: w, height: h, closer: 0.7)
        return try TurboJPEGEncoder().encode(image, quality: 90)
    }

    func select(_ spec: String) throws {
        let glasses: FittedGlasses
        lock.lock()
        do { glasses = try library.load(spec) } catch { lock.unlock(); throw error }
        lock.unlock()
        pipeline.selectGlasses(glasses)
    }
}

/// What a kiosk expects of a file or demo input while the preview is served: played at its own
/// frame rate (not as fast as the CPU allows) and started again at its end, with timestamps that
/// keep increasing so tracking and smoothing see one continuous clip. Cameras pass through.
final class KioskSource: FrameSource {
    private let open: () throws -> FrameSource
    private var source: FrameSource
    private let paced: Bool
    private let interval: Double
    private var offset = 0.0
    private var lastTimestamp = 0.0
    private var sequence = 0
    private var nextDue: UInt64 = 0
    private(set) var loops = 0

    init(paced: Bool, open: @escaping () throws -> FrameSource) throws {
        self.open = open
        self.paced = paced
        source = try open()
        interval = 1 / max(1, source.info.framesPerSecond ?? 30)
    }

    var info: SourceInfo { source.info }
    var issues: [String] { source.issues }
    func close() { source.close() }

    func nextFrame() throws -> Frame? {
        var frame = try source.nextFrame()
        if frame == nil {
            source.close()
            source = try open()
            loops += 1
            frame = try source.nextFrame()
            if let first = frame { offset = lastTimestamp + interval - first.timestampSeconds }
        }
        guard var frame else { return nil }
        frame.timestampSeconds += offset
        frame.sequence = sequence
        sequence += 1
        lastTimestamp = frame.timestampSeconds
        if paced { waitForDueTime() }
        return frame
    }

    private func waitForDueTime() {
        let now = DispatchTime.now().uptimeNanoseconds
        if nextDue == 0 || now > nextDue + UInt64(5 * interval * 1e9) { nextDue = now }
        if nextDue > now { usleep(useconds_t((nextDue - now) / 1000)) }
        nextDue += UInt64(interval * 1e9)
    }
}
