import Imaging
import Meshes
import Rendering

/// A glasses model alone on the viewer's neutral backdrop, seen from a turntable camera: the pictures
/// of `lorgnette view` and the preview's catalogue thumbnails. Not thread-safe (one renderer).
public final class GlassesPortrait {
    public let mesh: RenderableMesh
    let bounds: (min: SIMD3<Float>, max: SIMD3<Float>)
    let renderer = SceneRenderer()

    /// Nil for a model without geometry.
    public init?(_ glasses: CanonicalGlasses, antialiasing: Bool = true) {
        guard let bounds = glasses.mesh.bounds else { return nil }
        self.bounds = bounds
        mesh = RenderableMesh(glasses.mesh)
        renderer.antialiasing = antialiasing
    }

    /// The model turned by `yawDegrees` (see `Turntable.camera`), its bounding sphere fitting the
    /// picture's short side; `closer` < 1 moves the camera in by that factor.
    public func picture(yawDegrees: Float, width: Int, height: Int, closer: Float = 1) -> RGBImage {
        var turntable = Turntable(bounds: bounds, width: width, height: height)
        turntable.distance *= closer
        var image = Turntable.backdrop(width: width, height: height)
        renderer.beginFrame(width: width, height: height)
        renderer.draw(mesh, modelToWorld: .identity, camera: turntable.camera(yawDegrees: yawDegrees, width: width, height: height), into: &image)
        return image
    }
}
