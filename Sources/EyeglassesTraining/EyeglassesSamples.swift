import Compositor
import FaceData
import FaceModel
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Landmarks
import Meshes
import PoseEstimation
import Rendering

/// Hand labels of the faces68 photos: which show a person wearing glasses. The labels are a
/// project member's own (looked at every photo's eye band), not part of 300-W; a file of names only.
///
/// Format: one `name label` per line, `label` ∈ {glasses, sunglasses, unsure}; `#` starts a comment.
/// Photos not listed show no glasses. `unsure` faces (blurred or dark eye regions, rimless frames that
/// cannot be told from wrinkles) are left out of training and of every count.
public struct EyeglassesLabels: Sendable {
    public enum Label: String, Sendable { case glasses, sunglasses, unsure, none }
    public let labels: [String: Label]

    public init(text: String) throws {
        var out: [String: Label] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.isEmpty { continue }
            guard parts.count == 2, let label = Label(rawValue: String(parts[1])), label != .none else {
                throw EyeglassesTrainingError("labels line \(n + 1): expected 'name glasses|sunglasses|unsure'")
            }
            out[String(parts[0])] = label
        }
        labels = out
    }

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw EyeglassesTrainingError("cannot read labels \(path)")
        }
        try self.init(text: text)
    }

    public func label(_ name: String) -> Label { labels[name] ?? .none }
}

public struct EyeglassesTrainingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One pair of glasses the renderer can draw (a catalogue frame in one colour, or a model file).
public struct RenderableGlasses {
    public let name: String
    public let renderer: TryOnRenderer
    public init(name: String, fit: GlassesFit) {
        self.name = name
        renderer = TryOnRenderer(fit: fit)
        renderer.lightingMode = .fixed
    }
}

/// Makes the classifier's samples from one annotated photo: the photo as it is (labelled by the hand
/// labels) and the photo with glasses drawn on by the try-on renderer (`TryOnRenderer`, posed by PnP
/// from the annotated landmarks, under a randomised light and field of view). Landmarks are what the
/// runtime would have: the cascade's tracking fit started from the annotation, on the image the
/// classifier reads (the composited one for drawn glasses), so a fit pulled by a rim is trained on.
public struct EyeglassesSampleMaker {
    public let landmarks: any LandmarkModel
    public let pose: FacePoseEstimator
    public var glasses: [RenderableGlasses]
    private var features = EyeglassesFeatures()

    public init(landmarks: any LandmarkModel, face: MeanFace, glasses: [RenderableGlasses]) {
        self.landmarks = landmarks
        pose = FacePoseEstimator(face: face)
        self.glasses = glasses
    }

    /// The features of `gray` at the tracking fit from `start`, and of its mirror image.
    public mutating func features(_ gray: GrayImage, start: [SIMD2<Float>]) -> [[Float]] {
        let fitted = landmarks.track(in: gray, previous: start)
        return [features.values(gray, landmarks: fitted), features.values(gray, landmarks: fitted, mirrored: true)].compactMap { $0 }
    }

    /// `rgb` with the glasses `index` drawn on at the pose PnP finds for `points`; nil when no pose.
    public func composite(_ rgb: RGBImage, points: [SIMD2<Float>], glassesIndex index: Int, rng: inout SplitMix64) -> RGBImage? {
        func u(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() >> 11) / Double(1 << 53) }
        let camera = CameraIntrinsics(horizontalFOVDegrees: u(40, 65), width: rgb.width, height: rgb.height)
        guard let estimate = pose.estimate(landmarks: points, camera: camera) else { return nil }
        let renderer = glasses[index].renderer
        var light = Lighting.studio
        let k = Float(u(0.55, 1.3)), a = Float(u(0.5, 1.3))
        light.color *= k
        light.ambient *= a
        light.direction = simdNormalize(SIMD3<Float>(Float(u(-0.8, 0.8)), Float(u(-0.8, 0.2)), -Float(u(0.4, 1))))
        renderer.fixedLighting = light
        var out = rgb
        renderer.render(cameraFromFace: [estimate.cameraFromModel], intrinsics: camera, into: &out)
        return out
    }
}
