import Annotation
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
import Testing

/// The pipeline facade on the bundled models and the bundled demo portrait (all in `Models/`).
private enum Bundle {
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models")

    static func path(_ name: String) -> String { models.appendingPathComponent(name).path }

    static func library() throws -> GlassesLibrary {
        let face = try MeanFace(contentsOf: path("mean-face.json"))
        let catalogue = try GlassesCatalogue.load(path: path("frames/catalogue.json"))
        let loader = MeshLoader(decoders: TextureDecoders(jpeg: TurboJPEGDecoder(), png: LibPNGDecoder()))
        return GlassesLibrary(catalogue: catalogue, loader: loader, face: face)
    }

    static func pipeline(_ glasses: FittedGlasses, face: MeanFace, configuration: PipelineConfiguration = .init()) throws -> FramePipeline {
        let cascade = try LandmarkCascade(contentsOf: path("landmarks.lmrk"))
        let detector = HOGFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: path("face-detector.fdet")))
        return FramePipeline(face: face, detector: detector, landmarks: cascade, glasses: glasses,
                             decoder: TurboJPEGDecoder(), encoder: TurboJPEGEncoder(), configuration: configuration)
    }

    static func demo(frames: Int) throws -> DemoSource {
        let portrait = try TurboJPEGDecoder().decodeRGB([UInt8](Data(contentsOf: models.appendingPathComponent("demo/astronaut.jpg"))))
        return DemoSource(photo: portrait, focus: DemoSource.astronautFocus, span: DemoSource.astronautSpan,
                          width: 320, height: 240, framesPerSecond: 30, frameCount: frames)
    }
}

@Test func glassesLibraryResolvesCatalogueFramesAndRejectsUnknownOnes() throws {
    let library = try Bundle.library()
    let first = try library.load(nil)
    #expect(first.name == library.catalogue?.entries.first?.id)
    #expect(first.canonical.regions.frameWidth > 100 && first.canonical.regions.frameWidth < 160)
    #expect(throws: PipelineError.self) { try library.load("no-such-frame") }
    #expect(throws: PipelineError.self) { try library.load("/nonexistent/model.glb") }
}

@Test func pipelineDrawsGlassesOnTheTrackedDemoFaceAndEncodesEachFrame() throws {
    let library = try Bundle.library()
    let glasses = try library.load(nil)
    let pipeline = try Bundle.pipeline(glasses, face: library.face)
    var lastInput: Frame?
    let source = try Bundle.demo(frames: 6)
    var outputs: [PipelineOutput] = []
    while let frame = try source.nextFrame() {
        let output = try pipeline.process(frame)
        outputs.append(output)
        lastInput = frame
    }
    #expect(outputs.count == 6)
    #expect(outputs.map(\.index) == Array(0 ..< 6))
    #expect(outputs.allSatisfy { $0.width == 320 && $0.height == 240 })
    #expect(outputs.filter { !$0.anchors.isEmpty }.count >= 5, "the demo face is tracked")
    #expect(outputs.allSatisfy { $0.timings.decode >= 0 && $0.timings.track > 0 && $0.timings.encode > 0 })

    // The last output, decoded, differs from the input around the eyes (glasses drawn) and matches it
    // far from the face (nothing else touched, up to JPEG loss).
    let last = try #require(outputs.last)
    let anchor = try #require(last.anchors.first)
    let decoded = try TurboJPEGDecoder().decodeRGB(last.jpeg)
    guard case .rgb(let input)? = lastInput.map({ $0.payload }) else { Issue.record("demo frames are RGB"); return }
    let eyes = (36 ... 47).map { anchor.landmarks[$0] }
    let minX = Int(eyes.map(\.x).min()!) - 4, maxX = Int(eyes.map(\.x).max()!) + 4
    let minY = Int(eyes.map(\.y).min()!) - 6, maxY = Int(eyes.map(\.y).max()!) + 6
    let nearEyes = meanAbsoluteDifference(decoded, input, xs: max(0, minX) ... min(319, maxX), ys: max(0, minY) ... min(239, maxY))
    let corner = meanAbsoluteDifference(decoded, input, xs: 0 ... 20, ys: 0 ... 20)
    #expect(nearEyes > 4 * max(corner, 1), "glasses change the eye region (\(nearEyes)) far more than JPEG loss does elsewhere (\(corner))")
}

@Test func selectedGlassesTakeEffectAtTheNextFrame() throws {
    let library = try Bundle.library()
    let entries = try #require(library.catalogue?.entries)
    #expect(entries.count >= 2)
    let pipeline = try Bundle.pipeline(try library.load(entries[0].id), face: library.face)
    let source = try Bundle.demo(frames: 3)
    let a = try pipeline.process(try #require(try source.nextFrame()))
    pipeline.selectGlasses(try library.load(entries[1].id))
    #expect(pipeline.glassesName == entries[1].id)
    let b = try pipeline.process(try #require(try source.nextFrame()))
    #expect(a.glassesName == entries[0].id)
    #expect(b.glassesName == entries[1].id)
}

@Test func corruptJPEGFramesBecomeErrorsNotCrashes() throws {
    let library = try Bundle.library()
    let pipeline = try Bundle.pipeline(try library.load(nil), face: library.face)
    let garbage = Frame(payload: .jpeg([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 1, 2, 3]), timestampSeconds: 0, sequence: 0)
    #expect(throws: (any Error).self) { try pipeline.process(garbage) }
}

@Test func overlayListsAcceptOnlyTheCommandsItems() throws {
    let items = try OverlayItems(list: "landmarks, fps", allowed: ["landmarks", "pose", "fps"])
    #expect(items.landmarks && items.fps && !items.pose)
    #expect(try OverlayItems(list: "none", allowed: ["pose"]).isEmpty)
    #expect(throws: OverlayError.self) { try OverlayItems(list: "pose,light", allowed: ["pose"]) }
}

private func meanAbsoluteDifference(_ a: RGBImage, _ b: RGBImage, xs: ClosedRange<Int>, ys: ClosedRange<Int>) -> Double {
    var sum = 0, n = 0
    for y in ys {
        for x in xs {
            for c in 0 ..< 3 {
                sum += abs(Int(a.pixels[3 * (y * a.width + x) + c]) - Int(b.pixels[3 * (y * b.width + x) + c]))
                n += 1
            }
        }
    }
    return Double(sum) / Double(max(n, 1))
}

/// Issue 23: a model whose lenses have a plain default material (opaque white metal, here the
/// Khronos sunglasses with `{}` lens materials and anonymous part names) still shows the eyes:
/// the lenses are found by geometry and drawn see-through. The pupils' region of the output stays
/// close to the input frame; with lens finding switched off (`--lens none`) it is covered.
@Test(.enabled(if: FileManager.default.fileExists(atPath: KhronosCopy.source), "needs ../shared/data/glasses next to the repository"))
func eyesShowThroughLensesWithADefaultMaterial() throws {
    let dir = NSTemporaryDirectory() + "lorgnette-pipeline-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let model = dir + "/plain-lenses.glb"
    try KhronosCopy.withPlainLenses(to: model)
    var library = try Bundle.library()
    func pupilDifference(_ glasses: FittedGlasses) throws -> Double {
        let pipeline = try Bundle.pipeline(glasses, face: library.face)
        let source = try Bundle.demo(frames: 4)
        var last: (PipelineOutput, Frame)?
        while let frame = try source.nextFrame() { last = (try pipeline.process(frame), frame) }
        let (output, input) = try #require(last)
        let anchor = try #require(output.anchors.first)
        let decoded = try TurboJPEGDecoder().decodeRGB(output.jpeg)
        guard case .rgb(let image) = input.payload else { Issue.record("demo frames are RGB"); return 0 }
        // A box of half the eye's width around each eye's centre (the iris and pupil).
        var total = 0.0
        for eye in [36 ... 41, 42 ... 47] {
            let points = eye.map { anchor.landmarks[$0] }
            let cx = points.map(\.x).reduce(0, +) / 6, cy = points.map(\.y).reduce(0, +) / 6
            let r = max(2, (points.map(\.x).max()! - points.map(\.x).min()!) / 4)
            total += meanAbsoluteDifference(decoded, image, xs: Int(cx - r) ... Int(cx + r), ys: Int(cy - r / 2) ... Int(cy + r / 2))
        }
        return total / 2
    }
    let found = try library.load(model)
    #expect(found.lenses.filter { $0.evidence.description.hasPrefix("geometry") }.count == 2, "\(found.lenses)")
    let seeThrough = try pupilDifference(found)
    library.lensNames = ["none"]
    let covered = try pupilDifference(try library.load(model))
    print("pupil region mean |output - input|: lenses found \(seeThrough), lens finding off \(covered)")
    #expect(seeThrough < 20, "the eyes show through the lenses (mean difference \(seeThrough) of 255)")
    #expect(covered > 2 * seeThrough, "opaque lenses hide them (\(covered))")
}

private enum KhronosCopy {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/glasses/khronos_sunglasses/SunglassesKhronos.glb").path

    /// Lens materials made `{}`, lens meshes and nodes renamed "PartA"/"PartB".
    static func withPlainLenses(to path: String) throws {
        try GLBRewriter.rewrite(source, to: path) { json in
            var materials = json["materials"] as! [[String: Any]]
            for i in materials.indices where (materials[i]["name"] as? String)?.hasPrefix("lens") == true { materials[i] = [:] }
            json["materials"] = materials
            var meshes = json["meshes"] as! [[String: Any]], nodes = json["nodes"] as! [[String: Any]]
            var k = 0
            for i in meshes.indices where (meshes[i]["name"] as? String)?.hasPrefix("Lenses") == true {
                meshes[i]["name"] = ["PartA", "PartB"][k]
                k += 1
            }
            for j in nodes.indices where (nodes[j]["name"] as? String)?.hasPrefix("Lenses") == true { nodes[j]["name"] = "Part\(j)" }
            json["meshes"] = meshes
            json["nodes"] = nodes
        }
    }
}
