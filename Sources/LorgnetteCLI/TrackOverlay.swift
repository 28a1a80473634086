import FaceModel
import FaceTracking
import Foundation
import Geometry
import Imaging

/// What `lorgnette track --overlay` draws on each annotated frame.
struct TrackOverlay {
    var landmarks = false, pose = false, box = false, pupils = false, fps = false

    init(list: String) throws {
        for item in list.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            switch item {
            case "landmarks": landmarks = true
            case "pose": pose = true
            case "box": box = true
            case "pupils": pupils = true
            case "fps": fps = true
            case "none": break
            default: throw CLIError("--overlay: unknown item '\(item)' (expected landmarks, pose, box, pupils, fps or none)")
            }
        }
    }

    /// Landmarks as dots, the face box with id and state, pose axes (x red, y green, z blue, 60 mm from
    /// the point between the pupils, projected with the same intrinsics as the pose), frame rate.
    static func draw(_ anchors: [FaceAnchor], on image: inout RGBImage, items: TrackOverlay, camera: CameraIntrinsics, face: MeanFace, fps: Double) {
        for a in anchors {
            let colour: RGBColor = a.state == .detected ? .yellow : .green
            if items.box {
                let b = a.box
                image.drawRectangle(PixelRect(x: Int(b.x.rounded()), y: Int(b.y.rounded()), width: max(1, Int(b.width.rounded())), height: max(1, Int(b.height.rounded()))),
                                    color: colour, thickness: 2)
                let r = a.rotationDegrees
                image.drawText(String(format: "#%d %@ %.2f  p%.0f y%.0f r%.0f  %.0fmm", a.id, a.state.rawValue, a.confidence, r.x, r.y, r.z, a.translationMM.z),
                               atX: max(0, Int(b.x)), y: max(0, Int(b.y) - 12), color: colour)
            }
            if items.landmarks { image.drawMarkers(a.landmarks, color: .cyan, size: 3) }
            if items.pupils { image.drawMarkers(a.pupils, color: .magenta, size: 5) }
            if items.pose {
                let origin = a.cameraFromFace.apply(.zero)
                guard origin.z > 1 else { continue }
                let o = camera.project(origin)
                for (axis, c) in [(SIMD3<Double>(60, 0, 0), RGBColor.red), (SIMD3<Double>(0, 60, 0), RGBColor.green), (SIMD3<Double>(0, 0, -60), RGBColor.blue)] {
                    let end = a.cameraFromFace.apply(axis)
                    guard end.z > 1 else { continue }
                    let e = camera.project(end)
                    image.drawLine(from: SIMD2(Float(o.x), Float(o.y)), to: SIMD2(Float(e.x), Float(e.y)), color: c, thickness: 2)
                }
            }
        }
        if items.fps {
            image.drawText(String(format: "%.0f fps (tracking)", fps), atX: 4, y: 4, color: .white, scale: 2)
        }
    }
}
