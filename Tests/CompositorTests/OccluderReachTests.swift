@testable import Compositor
import FaceModel
import GlassesCatalogue
import Geometry
import Imaging
import Meshes
import Rendering
import Testing

/// The head occluder drawn only where the temples reach behind its front (`OccluderReach`) hides
/// what it hid when drawn over the whole pair of glasses, over far fewer pixels.
struct OccluderReachTests {
    static func render(_ renderer: TryOnRenderer, pose: RigidTransform, restricted: Bool) -> RGBImage {
        var image = GlassesFitTests.background()
        renderer.restrictsOccluderToReach = restricted
        renderer.render(cameraFromFace: [pose], intrinsics: GlassesFitTests.camera, into: &image)
        return image
    }

    @Test(arguments: [(0.0, 0.0), (0, 30), (0, -30), (0, 60), (0, -60), (15, 20), (-15, -45), (10, 75)])
    func sameTryOnAsTheWholeBoxOccluder(pitch: Double, yaw: Double) throws {
        let face = try GlassesFitTests.face()
        let renderer = TryOnRenderer(fit: GlassesFitTests.fitted(face))
        let pose = GlassesFitTests.pose(pitch: pitch, yaw: yaw)
        let whole = Self.render(renderer, pose: pose, restricted: false)
        let reach = Self.render(renderer, pose: pose, restricted: true)
        let drawn = GlassesFitTests.changed(GlassesFitTests.background(), whole, x: 0...639, y: 0...479)
        let differ = GlassesFitTests.changed(whole, reach, x: 0...639, y: 0...479)
        #expect(drawn > 1000)
        // Exact in exact arithmetic; the rasteriser's stepped 1/z of a sliver a pixel across can fall
        // a few per cent behind its corners' depths, and the whole-box occluder then hid that pixel.
        #expect(differ * 500 <= drawn, "\(differ) of \(drawn) glasses pixels differ at pitch \(pitch), yaw \(yaw)")
    }

    @Test func frontalFaceLeavesTheBridgeAndTopRimsOut() throws {
        let face = try GlassesFitTests.face()
        let renderer = TryOnRenderer(fit: GlassesFitTests.fitted(face))
        let pose = GlassesFitTests.pose(pitch: 0, yaw: 0)
        _ = Self.render(renderer, pose: pose, restricted: true)
        let camera = TryOnRenderer.camera(GlassesFitTests.camera)
        let box = try #require(renderer.scene.screenBounds(of: renderer.glasses, modelToWorld: renderer.modelView(cameraFromFace: pose),
                                                             camera: camera))
        @inline(__always) func area(_ b: PixelRect) -> Int { b.area }
        let regions = renderer.occluderRegions
        // One box per side: the temples and the lower rims, which the frame's tilt brings back to the
        // cheeks. The bridge (x = cx) and the top rims stay in front of the head.
        #expect(regions.count == 2)
        let centreX = Int(GlassesFitTests.camera.cx)
        #expect(regions.allSatisfy { $0.lastX < centreX - 4 || $0.x > centreX + 4 }, "\(regions)")
        #expect(regions.allSatisfy { $0.y > box.y + 4 }, "\(regions) in \(box)")
        let covered = regions.reduce(0) { $0 + area($1) }
        #expect(covered * 4 < area(box) * 3, "occluder regions \(covered) px of the glasses box's \(area(box))")
    }

    @Test func cameraBehindTheOccludersFrontFallsBackToTheWholeBox() throws {
        let face = try GlassesFitTests.face()
        let fit = GlassesFitTests.fitted(face)
        let reach = OccluderReach(occluder: HeadOccluder.mesh())
        let camera = TryOnRenderer.camera(GlassesFitTests.camera)
        let box = PixelRect(firstX: 0, firstY: 0, lastX: 639, lastY: 479)
        var regions: [PixelRect] = []
        // Facing the camera: bounded. Turned away (yaw 180°): the camera is behind the front plane.
        let facing = TryOnRenderer.transform(GlassesFitTests.pose(pitch: 0, yaw: 0))
        #expect(reach.regions(glasses: fit.mesh, modelView: facing * fit.faceFromGlasses, head: facing, camera: camera,
                              within: box, into: &regions))
        let away = TryOnRenderer.transform(GlassesFitTests.pose(pitch: 0, yaw: 180))
        #expect(!reach.regions(glasses: fit.mesh, modelView: away * fit.faceFromGlasses, head: away, camera: camera,
                               within: box, into: &regions))
    }
}
