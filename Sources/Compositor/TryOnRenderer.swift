import Anchors
import GlassesCatalogue
import LightEstimation
import Geometry
import Imaging
import Meshes
import Rendering

/// Draws a fitted pair of glasses on every tracked face of a frame, in place: the try-on
/// compositor.
///
/// Per face, model-view = `cameraFromFace` (the anchor's metric pose: face frame of `MeanFace` →
/// camera, mm, x right, y down, z forward) × `GlassesFit.faceFromGlasses`. The metric head
/// occluder (`HeadOccluder`, same face frame) is drawn depth-only first, restricted to the
/// screen boxes of the glasses' parts that reach behind its front (the temples: `OccluderReach`),
/// so the temples vanish behind the head and ears as it turns; then the glasses are shaded over
/// the decoded camera image. The camera is the tracker's pinhole intrinsics (pixel-centre
/// convention; lens distortion is not applied to the overlay).
///
/// Head width: a face narrower or wider than the mean head (`FaceAnchor.headWidthScale`, from the
/// tracked jaw width) gets the occluder scaled sideways by that factor and the glasses refitted so
/// their temples open to that head (`GlassesFit.forHeadWidth`; fits are cached per 2 % step, so a
/// face costs a refit only when its estimate moves by a step). The frame itself keeps its size.
/// Not thread-safe: one renderer per rendering thread.
public final class TryOnRenderer {
    public let fit: GlassesFit
    public let glasses: RenderableMesh
    public let occluder: RenderableMesh
    public let scene: SceneRenderer
    /// Draw the head occluder (off shows the temples through the head, for inspection).
    public var occlusion = true
    /// How the glasses are lit (`LightingMode`): `.fixed` draws every face under `fixedLighting`;
    /// `.estimated` under the light given per face to `render` (`Lighting(estimate:)`), and under
    /// `fixedLighting` until a face has an estimate.
    public var lightingMode = LightingMode.estimated
    public var fixedLighting = Lighting.studio
    /// Open the temples to each anchor's `headWidthScale` (off by default: with an unknown camera the
    /// jaw-width estimate is biased by the assumed field of view — 1.08–1.23 on the dev clips at 60°,
    /// 1.00–1.11 at 30° — so it is not yet a measurement of the head).
    public var followsHeadWidth = false

    /// Where the occluder can hide the glasses (`OccluderReach`), and this face's boxes of it; off,
    /// the occluder is drawn over the whole glasses box (what the tests compare with).
    let reach: OccluderReach
    var restrictsOccluderToReach = true
    private(set) var occluderRegions: [PixelRect] = []

    /// Refitted glasses per head-width step (`widthStep`), built on first use.
    private var widthFits: [Int: RenderableMesh] = [:]
    private var widthTransforms: [Int: Transform3D] = [:]
    /// Head-width steps (fraction of the mean head) between refits, and the range followed: only
    /// narrower heads — refitted to a wider head, a wide frame's inward-curving temple tips cannot
    /// clear it and the temples swing out (Khronos at 110 %: 147 mm), so wider faces keep the mean fit.
    public static let widthStep = 0.02
    public static let widthRange = 0.8...1.0

    public init(fit: GlassesFit, occluderMesh: Mesh = HeadOccluder.mesh()) {
        self.fit = fit
        glasses = RenderableMesh(fit.mesh)
        occluder = RenderableMesh(occluderMesh)
        reach = OccluderReach(occluder: occluderMesh)
        scene = SceneRenderer()
    }

    /// The glasses mesh and face-from-glasses placement for a head `scale` times the fit's width.
    public func glasses(forHeadWidth scale: Double) -> (mesh: RenderableMesh, faceFromGlasses: Transform3D, scale: Double) {
        let clamped = min(max(scale.isFinite ? scale : 1, Self.widthRange.lowerBound), Self.widthRange.upperBound)
        let key = Int(((clamped - 1) / Self.widthStep).rounded())
        if key == 0 { return (glasses, fit.faceFromGlasses, 1) }
        let quantized = 1 + Double(key) * Self.widthStep
        if let mesh = widthFits[key], let t = widthTransforms[key] { return (mesh, t, quantized) }
        let refit = fit.forHeadWidth(scale: quantized)
        let mesh = RenderableMesh(refit.mesh)
        widthFits[key] = mesh
        widthTransforms[key] = refit.faceFromGlasses
        return (mesh, refit.faceFromGlasses, quantized)
    }

    /// The rasteriser's camera for the tracker's intrinsics.
    public static func camera(_ intrinsics: CameraIntrinsics) -> PinholeCamera {
        PinholeCamera(fx: Float(intrinsics.fx), fy: Float(intrinsics.fy), cx: Float(intrinsics.cx), cy: Float(intrinsics.cy),
                      width: intrinsics.width, height: intrinsics.height)
    }

    /// `RigidTransform` (Double) as the rasteriser's `Transform3D` (Float).
    public static func transform(_ t: RigidTransform) -> Transform3D {
        let m = t.rotation.matrix
        return Transform3D(columns: SIMD3<Float>(Float(m.c0.x), Float(m.c0.y), Float(m.c0.z)),
                           SIMD3<Float>(Float(m.c1.x), Float(m.c1.y), Float(m.c1.z)),
                           SIMD3<Float>(Float(m.c2.x), Float(m.c2.y), Float(m.c2.z)),
                           translation: SIMD3<Float>(Float(t.translation.x), Float(t.translation.y), Float(t.translation.z)))
    }

    /// Camera-from-glasses for a face pose.
    public func modelView(cameraFromFace: RigidTransform) -> Transform3D {
        Self.transform(cameraFromFace) * fit.faceFromGlasses
    }

    /// Renders the glasses on each face pose into `image` (whose size the intrinsics describe);
    /// `headWidthScales` (one per pose, default 1) widen or narrow the head (see the type's notes).
    public func render(cameraFromFace poses: [RigidTransform], headWidthScales: [Double]? = nil, lightings: [Lighting]? = nil, intrinsics: CameraIntrinsics,
                       into image: inout RGBImage) {
        let camera = beginFrame(intrinsics, image)
        defer { scene.scissor = nil }
        for (i, pose) in poses.enumerated() {
            let lighting = lightingMode == .fixed ? fixedLighting : (lightings.flatMap { i < $0.count ? $0[i] : nil } ?? fixedLighting)
            drawFace(pose, headWidthScale: headWidthScales.map { i < $0.count ? $0[i] : 1 } ?? 1, lighting: lighting, camera: camera, into: &image)
        }
    }

    /// Renders the glasses on every anchor that is not lost, lit by `lights[anchor.id]` (see `lightingMode`), each at its observed head width.
    public func render(_ anchors: [FaceAnchor], lights: [Int: LightEstimate] = [:], intrinsics: CameraIntrinsics, into image: inout RGBImage) {
        render(anchors, intrinsics: intrinsics, into: &image) { lights[$0] }
    }

    /// The same with the lights as `LightTracker`'s `into:` forms report them (one entry per face id);
    /// builds no per-frame arrays.
    public func render(_ anchors: [FaceAnchor], lights: [LightTracker.FaceLight], intrinsics: CameraIntrinsics, into image: inout RGBImage) {
        render(anchors, intrinsics: intrinsics, into: &image) { id in lights.first { $0.faceID == id }?.estimate }
    }

    private func render(_ anchors: [FaceAnchor], intrinsics: CameraIntrinsics, into image: inout RGBImage, light: (Int) -> LightEstimate?) {
        let camera = beginFrame(intrinsics, image)
        defer { scene.scissor = nil }
        for a in anchors where a.state != .lost {
            let lighting = lightingMode == .fixed ? fixedLighting : (light(a.id).map(Lighting.init(estimate:)) ?? fixedLighting)
            drawFace(a.cameraFromFace, headWidthScale: followsHeadWidth ? a.headWidthScale : 1, lighting: lighting, camera: camera, into: &image)
        }
    }

    private func beginFrame(_ intrinsics: CameraIntrinsics, _ image: RGBImage) -> PinholeCamera {
        var camera = Self.camera(intrinsics)
        camera.width = image.width
        camera.height = image.height
        scene.beginFrame(width: image.width, height: image.height)
        return camera
    }

    /// One face: the head occluder (depth only) then the glasses, both clipped to the glasses' screen box.
    private func drawFace(_ pose: RigidTransform, headWidthScale: Double, lighting: Lighting, camera: PinholeCamera, into image: inout RGBImage) {
        let face = Self.transform(pose)
        scene.lighting = lighting
        let (mesh, faceFromGlasses, scale) = glasses(forHeadWidth: headWidthScale)
        let modelView = face * faceFromGlasses
        guard let box = scene.screenBounds(of: mesh, modelToWorld: modelView, camera: camera) else { return }
        scene.scissor = box
        if occlusion {
            let head = scale == 1 ? face : face * Transform3D(columns: SIMD3(Float(scale), 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
            // Only where the temples reach behind the occluder's front can it hide anything.
            if restrictsOccluderToReach,
               reach.regions(glasses: mesh.mesh, modelView: modelView, head: head, camera: camera, within: box, into: &occluderRegions) {
                scene.drawOccluder(occluder, modelToWorld: head, camera: camera, into: &image, within: occluderRegions)
            } else {
                scene.drawOccluder(occluder, modelToWorld: head, camera: camera, into: &image)
            }
        }
        scene.draw(mesh, modelToWorld: modelView, camera: camera, into: &image)
    }
}
