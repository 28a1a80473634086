// swift-tools-version: 6.1
// Lorgnette: real-time face tracking and eyeglasses try-on for Linux.
//
// Dependency rule: the pure-Swift domain modules (Imaging, Media and the pipeline stages)
// never import a C adapter. Adapters (JPEGCodec over libjpeg-turbo, Capture over libv4l2,
// LinearAlgebra over cblas/LAPACKE) implement the domain's protocols; the CLI composes them.
import PackageDescription

// Release builds are for the machine that builds them (`swift run -c release`): `-target-cpu native`
// lets the pixel kernels' SIMD8 vectors use the CPU's full width (AVX2 on x86-64: one instruction, not
// two SSE halves), as libjpeg-turbo does by detecting the CPU at run time. Floating-point results do
// not change (no contraction into FMA). A binary for other machines: build with this flag removed.
let optimized: [SwiftSetting] = [
    .unsafeFlags(["-Ounchecked", "-target-cpu", "native"], .when(configuration: .release)),
]

// Modules that parse untrusted bytes keep Swift's checks: a forged count or offset the loaders' own
// limits miss traps cleanly instead of reading or writing out of bounds, which is what -Ounchecked
// made of it (issue 25). Same native CPU target. On: image headers and photo inputs (JPEGCodec,
// PNGCodec, Inputs), meshes (Meshes; the texture sampler is @inlinable and runs with Rendering's
// flags), HTTP (PreviewServer), media containers (Media: MJPEG splitter, AVI reader and writer) and
// model files (ModelFormat). Bench/ParserBenchmarks, HTTPBenchmarks and CodecBenchmarks measured no
// slow-down; Media's splitter and ModelFormat's checksum and tensor decoding first had their inner
// loops rewritten over validated buffers (Bench/README.md, "Checked parsers"). The model loaders in
// Landmarks, FaceDetection, FaceTracking (and FaceModel's mean-face reader, JSON through Foundation)
// stay in their kernel modules: they read no bytes, only ModelArchive's tensors, whose value count is
// the product of their shape and whose values are finite and bounded, checked in ModelFormat; each
// compares every shape with the layout it expects, built from bounded metadata, before indexing.
// Kernels: `optimized`.
let checked: [SwiftSetting] = [
    .unsafeFlags(["-target-cpu", "native"], .when(configuration: .release)),
]

let package = Package(
    name: "Lorgnette",
    products: [
        .executable(name: "lorgnette", targets: ["LorgnetteCLI"]),
        // What Bench/ (a separate package) links against.
        .library(name: "LorgnetteEngine", targets: ["Imaging", "Media", "JPEGCodec", "FaceDetection", "ModelFormat", "FaceMarkup", "Geometry", "FaceModel", "FaceModelTraining", "PoseEstimation", "Smoothing", "Anchors", "FaceTracking", "Meshes", "Rendering", "GlassesCatalogue", "PNGCodec", "Inputs", "FaceData", "Landmarks", "Compositor", "Annotation", "Pipeline", "FacialMetrics", "LightEstimation", "VirtualCamera"]),
        // The HTTP preview adapter and the codec its benchmark feeds it with, separate so only the
        // benchmarks that measure it build Hummingbird (and they need not build the whole engine).
        .library(name: "LorgnettePreview", targets: ["PreviewServer", "Imaging", "Media", "JPEGCodec"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // C adapters: each wraps one system library behind a small longjmp-free, non-variadic surface.
        .target(name: "CJPEGTurbo", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CBLAS", linkerSettings: [.linkedLibrary("blas"), .linkedLibrary("lapacke")]),
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png")]),
        // Model compression: meshoptimizer's decoders (EXT_meshopt_compression), size-checked.
        .target(name: "CMeshopt", linkerSettings: [.linkedLibrary("meshoptimizer")]),
        // Google Draco (C++, KHR_draco_mesh_compression) behind a C API that catches every exception.
        .target(name: "CDraco", linkerSettings: [.linkedLibrary("draco")]),
        // libwebp's decoder: EXT_texture_webp base-colour textures.
        .target(name: "CWebP", linkerSettings: [.linkedLibrary("webp")]),
        // Counts heap allocations for `lorgnette bench` (interposes malloc in the executable only).
        .target(name: "CMallocCounter"),

        // Domain (pure Swift).
        .target(name: "Imaging", swiftSettings: optimized),
        .target(name: "Media", dependencies: ["Imaging"], swiftSettings: checked),
        .target(name: "ModelFormat", swiftSettings: checked),
        // The 68-point markup (indices, regions, the left/right remap): what the runtime fit and the
        // dataset readers both need, in a module that costs nothing else to import.
        .target(name: "FaceMarkup", swiftSettings: optimized),
        .target(name: "Landmarks", dependencies: ["FaceMarkup", "Imaging", "FaceDetection", "ModelFormat"], swiftSettings: optimized),
        .target(name: "Meshes", dependencies: ["Imaging", "Media"], swiftSettings: checked),
        .target(name: "Rendering", dependencies: ["Imaging", "Meshes"], swiftSettings: optimized),
        .target(name: "GlassesCatalogue", dependencies: ["Imaging", "Meshes"], swiftSettings: optimized),
        .target(name: "FaceData", dependencies: ["FaceMarkup", "Imaging", "Media"], swiftSettings: optimized),
        .target(name: "FaceDetection", dependencies: ["Imaging", "ModelFormat"], swiftSettings: optimized),

        // Face anchor: geometry, metric mean face, pose, smoothing, tracking loop.
        .target(name: "Geometry", swiftSettings: optimized),
        .target(name: "FaceModel", dependencies: ["Geometry", "Imaging", "Media"], swiftSettings: optimized),
        .target(name: "PoseEstimation", dependencies: ["Geometry", "FaceModel"], swiftSettings: optimized),
        .target(name: "Smoothing", dependencies: ["Geometry"], swiftSettings: optimized),
        // What every later stage reads of a face (`FaceAnchor`), without the tracker that makes it.
        .target(name: "Anchors", dependencies: ["Geometry", "FaceDetection", "PoseEstimation"], swiftSettings: optimized),
        .target(name: "FaceTracking", dependencies: ["Anchors", "Geometry", "FaceModel", "PoseEstimation", "Smoothing", "Landmarks", "FaceDetection", "Imaging", "ModelFormat", "Media"], swiftSettings: optimized),
        // Try-on: glasses fitted to the face anchor and drawn over the frame.
        .target(name: "Compositor", dependencies: ["Meshes", "Rendering", "GlassesCatalogue", "FaceModel", "Anchors", "Geometry", "Imaging", "LightEstimation"], swiftSettings: optimized),
        // Scene light from the tracked face: spherical-harmonic irradiance, ARKit-style estimate.
        .target(name: "LightEstimation", dependencies: ["FaceModel", "Anchors", "Geometry", "Imaging"], exclude: ["README.md"], swiftSettings: optimized),
        // Facial metrics: refined pupils, iris/card/camera scale, PD, temple width, frame size.
        .target(name: "FacialMetrics", dependencies: ["Geometry", "FaceMarkup", "FaceModel", "Imaging", "GlassesCatalogue", "ModelFormat"], exclude: ["README.md"], swiftSettings: optimized),
        // Annotation: every overlay drawn over output frames (what the tracker saw, the light, the metrics).
        .target(name: "Annotation", dependencies: ["Anchors", "FacialMetrics", "Geometry", "Imaging", "LightEstimation"], swiftSettings: optimized),
        // The try-on pipeline facade that live, bench and the HTTP preview drive (codecs injected).
        .target(name: "Pipeline", dependencies: ["Anchors", "Annotation", "Compositor", "LightEstimation", "FaceDetection", "FaceModel", "FaceTracking", "FacialMetrics", "GlassesCatalogue", "Geometry", "Imaging", "Landmarks", "Media", "Meshes", "PoseEstimation"], swiftSettings: optimized),

        // Adapters: the Swift faces of the C libraries.
        .target(name: "JPEGCodec", dependencies: ["CJPEGTurbo", "Imaging", "Media"], swiftSettings: checked),
        .target(name: "PNGCodec", dependencies: ["CPNG", "Imaging", "Meshes"], swiftSettings: checked),
        // The glTF geometry decompressors the mesh loader is handed (`GeometryDecoders`).
        .target(name: "MeshoptCodec", dependencies: ["CMeshopt", "Meshes"], swiftSettings: checked),
        .target(name: "DracoCodec", dependencies: ["CDraco", "Meshes"], swiftSettings: checked),
        .target(name: "WebPCodec", dependencies: ["CWebP", "Imaging", "Meshes"], swiftSettings: checked),
        // The one way in: every input (demo, videos, photos of every format, folders of images) opened in one place.
        .target(name: "Inputs", dependencies: ["Imaging", "Media", "JPEGCodec", "PNGCodec"], swiftSettings: checked),
        .target(name: "LinearAlgebra", dependencies: ["CBLAS"], swiftSettings: optimized),
        .target(name: "Capture", dependencies: ["CV4L2", "Imaging", "Media"], swiftSettings: optimized),
        // The try-on as a webcam: frames written to a V4L2 output device (v4l2loopback).
        .target(name: "VirtualCamera", dependencies: ["CV4L2", "Capture", "Imaging"], swiftSettings: optimized),

        // Training (offline, `lorgnette train`): the trainers of the bundled models, kept out of the runtime modules.
        .target(name: "DetectorTraining", dependencies: ["FaceDetection", "FaceData", "Imaging", "LinearAlgebra", "Media"], swiftSettings: optimized),
        .target(name: "LandmarkTraining", dependencies: ["FaceMarkup", "Landmarks", "LinearAlgebra", "FaceData", "FaceDetection", "FaceTracking", "Imaging", "Media", "ModelFormat"], swiftSettings: optimized),
        .target(name: "FaceModelTraining", dependencies: ["FaceMarkup", "FaceModel", "FaceData", "Geometry"], swiftSettings: optimized),
        // The eyeglasses classifier's trainer (`lorgnette train eyeglasses`): faces68 photos, with glasses drawn
        // on by the try-on renderer and the real glasses of a hand-labelled list.
        .target(name: "EyeglassesTraining", dependencies: ["FacialMetrics", "FaceData", "Compositor", "Rendering", "PoseEstimation", "FaceModel", "Landmarks", "LandmarkTraining", "Geometry", "Imaging", "Media", "Meshes"], swiftSettings: optimized),
        // Evaluation of the facial metrics (offline, `lorgnette eval coverage`, tests): the synthetic head
        // with known PD and iris, people drawn from the population, webcam degradations, band coverage.
        .target(name: "MetricsEvaluation", dependencies: ["Anchors", "FaceData", "FacialMetrics", "FaceTracking", "FaceDetection", "Landmarks", "PoseEstimation", "FaceModel", "Geometry", "Imaging", "Meshes", "Rendering"], swiftSettings: optimized),

        // Live preview in the browser: MJPEG stream, status, frame switching over Hummingbird 2.
        .target(name: "PreviewServer", dependencies: [.product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")], swiftSettings: checked),

        // Composition.
        .executableTarget(
            name: "LorgnetteCLI",
            dependencies: [
                "Imaging", "Media", "JPEGCodec", "Capture", "VirtualCamera", "CMallocCounter",
                "FaceData", "FaceDetection", "DetectorTraining", "ModelFormat", "Landmarks", "LandmarkTraining", "EyeglassesTraining", "LinearAlgebra",
                "Geometry", "FaceModel", "FaceModelTraining", "PoseEstimation", "Smoothing", "Anchors", "FaceTracking",
                "Meshes", "Rendering", "GlassesCatalogue", "PNGCodec", "MeshoptCodec", "DracoCodec", "WebPCodec", "Inputs", "Compositor", "Annotation", "Pipeline", "LightEstimation", "FacialMetrics", "MetricsEvaluation", "PreviewServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: optimized
        ),

        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "InputsTests", dependencies: ["Inputs", "Media", "Imaging", "JPEGCodec", "PNGCodec"]),
        .testTarget(name: "MeshesTests", dependencies: ["Meshes", "PNGCodec", "JPEGCodec", "MeshoptCodec", "CMeshopt", "DracoCodec", "WebPCodec", "Imaging"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "Meshes", "GlassesCatalogue", "Imaging", "PNGCodec", "JPEGCodec"],
                    exclude: ["Fixtures", "ThreeReference"]),
        .testTarget(name: "CompositorTests", dependencies: ["Compositor", "Meshes", "Rendering", "GlassesCatalogue", "FaceModel", "Geometry", "Imaging"]),
        .testTarget(name: "GlassesCatalogueTests", dependencies: ["GlassesCatalogue", "Meshes"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "JPEGCodec", "Imaging", "Inputs"]),
        .testTarget(name: "JPEGCodecTests", dependencies: ["JPEGCodec", "Media", "Imaging"]),
        .testTarget(name: "ModelFormatTests", dependencies: ["ModelFormat"]),
        .testTarget(name: "LandmarksTests", dependencies: ["FaceMarkup", "Inputs", "Landmarks", "LandmarkTraining", "LinearAlgebra", "FaceData", "FaceDetection", "Imaging", "JPEGCodec", "ModelFormat"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "CV4L2", "Media", "Imaging", "JPEGCodec"]),
        .testTarget(name: "VirtualCameraTests", dependencies: ["VirtualCamera", "Capture", "Imaging"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"], exclude: ["Fixtures"]),
        .testTarget(name: "FaceModelTests", dependencies: ["FaceMarkup", "FaceModel", "FaceModelTraining", "Geometry", "FaceData", "JPEGCodec"]),
        .testTarget(name: "PoseEstimationTests", dependencies: ["PoseEstimation", "FaceModel", "Geometry"]),
        .testTarget(name: "SmoothingTests", dependencies: ["Smoothing", "Geometry"]),
        .testTarget(name: "FaceTrackingTests", dependencies: ["FaceMarkup", "Inputs", "Anchors", "FaceTracking", "LandmarkTraining", "PoseEstimation", "FaceModel", "Smoothing", "Geometry", "Landmarks", "FaceDetection", "Imaging", "FaceData", "JPEGCodec", "ModelFormat"]),
        .testTarget(name: "FaceDetectionTests", dependencies: ["Inputs", "FaceDetection", "DetectorTraining", "FaceData", "Imaging", "JPEGCodec", "ModelFormat"]),
        .testTarget(name: "LightEstimationTests", dependencies: ["LightEstimation", "Anchors", "Rendering", "Meshes", "FaceModel", "FaceTracking", "PoseEstimation", "Geometry", "Imaging"]),
        .testTarget(name: "PipelineTests", dependencies: ["EyeglassesTraining", "FaceData", "FacialMetrics", "ModelFormat", "Pipeline", "Anchors", "Annotation", "Compositor", "FaceDetection", "FaceModel", "GlassesCatalogue", "JPEGCodec", "PNGCodec", "Landmarks", "Media", "Meshes", "Imaging"]),
        .testTarget(name: "FacialMetricsTests", dependencies: ["PNGCodec", "FaceData", "FaceMarkup", "FacialMetrics", "MetricsEvaluation", "Anchors", "FaceTracking", "FaceModel", "FaceDetection", "Landmarks", "PoseEstimation", "Geometry", "Imaging", "Media", "Meshes", "Rendering", "JPEGCodec"]),
        .testTarget(name: "PreviewServerTests", dependencies: ["PreviewServer", "JPEGCodec", "PNGCodec", "Imaging"]),
        // Seeded mutations of every untrusted input format, and the hostile inputs of issue 25.
        .testTarget(name: "FuzzTests", dependencies: ["FacialMetrics", "Anchors", "Inputs", "Imaging", "Media", "JPEGCodec", "PNGCodec", "Meshes", "ModelFormat", "Landmarks", "FaceDetection", "FaceTracking", "FaceModel"]),
        .testTarget(name: "CLITests", dependencies: ["LorgnetteCLI", "Media", "JPEGCodec", "PNGCodec", "Imaging"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
