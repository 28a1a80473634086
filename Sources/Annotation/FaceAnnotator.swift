import Anchors
import Foundation
import Geometry
import Imaging

/// Draws what the tracker saw over a frame: landmarks, refined pupils, the face box with its id and
/// state, and the pose axes (x red, y green, z blue, 60 mm from the face origin, projected with the
/// same intrinsics the pose was solved with, so the axes show any pose error honestly).
public enum FaceAnnotator {
    public static func draw(_ anchors: [FaceAnchor], items: OverlayItems, camera: CameraIntrinsics, on image: inout RGBImage) {
        for a in anchors {
            let colour: RGBColor = a.state == .detected ? .yellow : .green
            if items.box {
                let b = a.box
                image.drawRectangle(PixelRect(x: Int(b.x.rounded()), y: Int(b.y.rounded()),
                                              width: max(1, Int(b.width.rounded())), height: max(1, Int(b.height.rounded()))),
                                    color: colour, thickness: 2)
                let r = a.rotationDegrees
                image.drawText(String(format: "#%d %@ %.2f  p%.0f y%.0f r%.0f  %.0fmm", a.id, a.state.rawValue, a.confidence,
                                      r.x, r.y, r.z, a.translationMM.z),
                               atX: max(0, Int(b.x)), y: max(0, Int(b.y) - 12), color: colour)
            }
            if items.landmarks { image.drawMarkers(a.landmarks, color: .cyan, size: 3) }
            if items.pupils { image.drawMarkers(a.pupils, color: .magenta, size: 5) }
            if items.pose { drawAxes(a.cameraFromFace, camera: camera, on: &image) }
        }
    }

    /// The frame rate in the top-left corner.
    public static func drawRate(_ fps: Double, label: String = "fps", on image: inout RGBImage) {
        image.drawText(String(format: "%.0f %@", fps, label), atX: 4, y: 4, color: .white, scale: 2)
    }

    static func drawAxes(_ pose: RigidTransform, camera: CameraIntrinsics, on image: inout RGBImage) {
        let origin = pose.apply(.zero)
        guard origin.z > 1 else { return }
        let o = camera.project(origin)
        for (axis, c) in [(SIMD3<Double>(60, 0, 0), RGBColor.red), (SIMD3<Double>(0, 60, 0), RGBColor.green),
                          (SIMD3<Double>(0, 0, -60), RGBColor.blue)] {
            let end = pose.apply(axis)
            guard end.z > 1 else { continue }
            let e = camera.project(end)
            image.drawLine(from: SIMD2(Float(o.x), Float(o.y)), to: SIMD2(Float(e.x), Float(e.y)), color: c, thickness: 2)
        }
    }
}
