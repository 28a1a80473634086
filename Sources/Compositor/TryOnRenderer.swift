import FaceTracking
import FrameCatalogue
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
/// glasses' screen box, so the temples vanish behind the head and ears as it turns; then the
/// glasses are shaded over the decoded camera image. The camera is the tracker's pinhole
/// intrinsics (pixel-centre convention; lens distortion is not applied to the overlay).
/// Not thread-safe: one renderer per rendering thread.
public final class TryOnRenderer {
    public let fit: GlassesFit
    public let glasses: RenderableMesh
    public let occluder: RenderableMesh
    public let scene: SceneRenderer
    /// Draw the head occluder (off shows the temples through the head, for inspection).
    public var occlusion = true

    public init(fit: GlassesFit, occluderMesh: Mesh = HeadOccluder.mesh()) {
        self.fit = fit
        glasses = RenderableMesh(fit.mesh)
        occluder = RenderableMesh(occluderMesh)
        scene = SceneRenderer()
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

    /// Renders the glasses on each face pose into `image` (whose size the intrinsics describe).
    public func render(cameraFromFace poses: [RigidTransform], intrinsics: CameraIntrinsics, into image: inout RGBImage) {
        var camera = Self.camera(intrinsics)
        camera.width = image.width
        camera.height = image.height
        scene.beginFrame(width: image.width, height: image.height)
        defer { scene.scissor = nil }
        for pose in poses {
            let face = Self.transform(pose)
            let modelView = face * fit.faceFromGlasses
            guard let box = scene.screenBounds(of: glasses, modelToWorld: modelView, camera: camera) else { continue }
            scene.scissor = box
            if occlusion { scene.drawOccluder(occluder, modelToWorld: face, camera: camera, into: &image) }
            scene.draw(glasses, modelToWorld: modelView, camera: camera, into: &image)
        }
    }

    /// Renders the glasses on every anchor that is not lost.
    public func render(_ anchors: [FaceAnchor], intrinsics: CameraIntrinsics, into image: inout RGBImage) {
        render(cameraFromFace: anchors.filter { $0.state != .lost }.map(\.cameraFromFace), intrinsics: intrinsics, into: &image)
    }
}
