import DracoCodec
import Foundation
import FaceDetection
import FaceModel
import FaceTracking
import GlassesCatalogue
import JPEGCodec
import Landmarks
import Meshes
import MeshoptCodec
import PNGCodec
import Pipeline
import WebPCodec

/// Composes the try-on pipeline from the bundled models and the C-backed codecs: the one place the
/// CLI's `live`, `bench` and HTTP preview get a `FramePipeline` from.
enum PipelineFactory {
    /// The mesh loader with libjpeg-turbo and libpng behind its texture decoders and meshoptimizer
    /// behind its geometry decoders; files a model names stay inside its folder unless
    /// `allowsFilesOutsideFolder` (`--allow-outside-uris`).
    static func meshLoader(allowsFilesOutsideFolder: Bool = false) -> MeshLoader {
        MeshLoader(decoders: TextureDecoders(jpeg: TurboJPEGDecoder(), png: LibPNGDecoder(), webp: LibWebPDecoder()),
                   geometry: GeometryDecoders(meshopt: MeshoptDecoder(), draco: DracoDecoder()),
                   allowsFilesOutsideFolder: allowsFilesOutsideFolder)
    }

    /// The bundled frame catalogue and a loader fitting glasses to the bundled mean face.
    static func glassesLibrary(frameWidthOverrideMM: Float? = nil, lensNames: [String] = [], allowsFilesOutsideFolder: Bool = false) throws -> GlassesLibrary {
        let face = try MeanFace(contentsOf: try ModelsDirectory.file("mean-face.json").path)
        let catalogue: GlassesCatalogue
        do {
            catalogue = try GlassesCatalogue.load(path: try ModelsDirectory.file("frames/catalogue.json").path)
        } catch let e as CatalogueError {
            throw CLIError(e.description)
        }
        return GlassesLibrary(catalogue: catalogue, loader: meshLoader(allowsFilesOutsideFolder: allowsFilesOutsideFolder), face: face,
                              frameWidthOverrideMM: frameWidthOverrideMM, lensNames: lensNames)
    }

    /// The detector and landmark models, read once for a run that makes several pipelines (`measure`:
    /// one per photo or recording). Nil paths: the bundled models.
    struct TrackingModels {
        let cascade: LandmarkCascade
        let detector: HOGFaceDetectorModel

        init(landmarkModel: String? = nil, detectorModel: String? = nil) throws {
            cascade = try LandmarkCascade(contentsOf: try landmarkModel ?? ModelsDirectory.file("landmarks.lmrk").path)
            detector = try HOGFaceDetectorModel(contentsOfFile: try detectorModel ?? ModelsDirectory.file("face-detector.fdet").path)
        }
    }

    /// The photo journey of `landmarks`: the photo detector (faces of any size, at the edge) and the
    /// bundled tracking-confidence model as the fit judge when it was trained for the landmark model.
    static func makePhotoLandmarker(models: TrackingModels, mirror: DetectionRefinement.MirrorCombination? = DetectionRefinement().mirror) throws -> PhotoLandmarker {
        let confidencePath = try ModelsDirectory.file("tracking-confidence.tcnf").path
        let judge = FileManager.default.fileExists(atPath: confidencePath) ? try? TrackingConfidenceModel(contentsOf: confidencePath) : nil
        return PhotoLandmarker(detector: PhotoFaceDetector(model: models.detector), cascade: models.cascade, judge: judge,
                               decoder: TurboJPEGDecoder(), mirror: mirror)
    }

    /// A pipeline drawing `glasses` (nil for the modes without glasses) with `models` (default: the
    /// bundled ones); `stills` (photos) detects with `PhotoFaceDetector`, which finds faces of any size
    /// and at the frame's edge. Without a confidence model in the configuration the bundled one is
    /// used when `defaultConfidenceModel`.
    static func makePipeline(glasses: FittedGlasses?, face: MeanFace, configuration: PipelineConfiguration, stills: Bool = false,
                             models: TrackingModels? = nil, defaultConfidenceModel: Bool = true) throws -> FramePipeline {
        let models = try models ?? TrackingModels()
        let detector: any FaceDetector = stills ? PhotoFaceDetector(model: models.detector) : HOGFaceDetector(model: models.detector)
        var configuration = configuration
        if defaultConfidenceModel, configuration.tracker.confidenceModel == nil, let url = try? ModelsDirectory.file("tracking-confidence.tcnf") {
            // Loss by the "still a face?" classifier; a model trained for another landmark model is ignored by the tracker.
            configuration.tracker.confidenceModel = try TrackingConfidenceModel(contentsOf: url.path)
        }
        return FramePipeline(face: face, detector: detector, landmarks: models.cascade, glasses: glasses,
                             decoder: TurboJPEGDecoder(), encoder: TurboJPEGEncoder(), configuration: configuration)
    }
}
