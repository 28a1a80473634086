import Anchors
import FacialMetrics
import Foundation
import Imaging
import LightEstimation

/// The overlays of the later stages, beside `FaceAnnotator`'s of the tracker: each face's fit summary,
/// the rolling measurement, the light gizmo. (Formerly private drawing code of the pipeline.)
public enum StageAnnotator {
    /// Per face: id, head angles, distance and the fitted glasses' width (`frameWidthMM`), under its box.
    public static func drawFitSummary(_ anchors: [FaceAnchor], frameWidthMM: Double, on canvas: inout RGBImage) {
        for a in anchors {
            let r = a.rotationDegrees
            let x = Int(a.box.x), y = Int(a.box.y + a.box.height) + 4
            canvas.drawText(String(format: "#%d pitch %.0f yaw %.0f roll %.0f  %.0f mm  frame %.0f mm",
                                   a.id, r.x, r.y, r.z, a.translationMM.z, frameWidthMM),
                            atX: max(0, min(x, canvas.width - 8)), y: max(0, min(y, canvas.height - 10)), color: .white)
        }
    }

    /// PD and temple width (± ≈ 95 %) of the measured face, top left; or why this frame was not used.
    public static func drawMetrics(_ report: MeasurementReport?, frame r: FrameResult, on canvas: inout RGBImage) {
        let text: String
        if let m = report {
            text = String(format: "PD %.1f +/- %.1f mm (far %.1f)  temple %.0f +/- %.0f mm  n=%d", m.pd.value, m.pd.plusMinus,
                          m.pdFar.value, m.templeWidth.value, m.templeWidth.plusMinus, m.framesUsed)
                + (r.accepted ? "" : "  (" + (r.rejectionSet.first?.rawValue ?? "") + ")")
        } else {
            text = "PD: " + (r.rejectionSet.first?.rawValue ?? "measuring")
        }
        canvas.drawText(text, atX: 8, y: 8, color: .white)
    }

    /// Per face: the light gizmo (direction, colour temperature, intensities) beside the face box.
    public static func drawLights(_ anchors: [FaceAnchor], _ lights: [LightTracker.FaceLight], on canvas: inout RGBImage) {
        for a in anchors {
            guard let e = lights.first(where: { $0.faceID == a.id })?.estimate else { continue }
            let x = Int(a.box.x + a.box.width) + 30, y = Int(a.box.y) + 30
            LightGizmo.draw(e, centreX: max(30, min(x, canvas.width - 120)), centreY: max(30, min(y, canvas.height - 50)), on: &canvas)
        }
    }
}
