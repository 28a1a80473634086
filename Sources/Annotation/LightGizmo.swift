import Foundation
import Imaging
import LightEstimation

/// The `--overlay light` annotation: a small sphere-and-arrow gizmo showing where the estimated
/// primary light comes from, and the light's colour temperature and intensity as text.
///
/// The gizmo is a circle of radius `radius` pixels (a unit sphere seen from the camera) with a
/// line from its centre to the image-plane projection (x, y; camera space, y down) of the unit
/// vector towards the light, ending in a dot filled with the light's colour: a light from the
/// upper left points up and left; a short arrow means light from in front of (dot inside, filled)
/// or behind (hollow dot) the face.
public enum LightGizmo {
    public static func draw(_ estimate: LightEstimate, centreX: Int, centreY: Int, radius: Int = 24, on image: inout RGBImage) {
        let r = Float(radius)
        image.drawCircle(center: SIMD2<Float>(Float(centreX), Float(centreY)), radius: r, color: .white)
        let d = estimate.towardsLight
        let tipX = Float(centreX) + d.x * r, tipY = Float(centreY) + d.y * r
        image.drawLine(from: SIMD2<Float>(Float(centreX), Float(centreY)), to: SIMD2<Float>(tipX, tipY), color: .yellow)
        let c = estimate.primaryLightColor
        let peak = max(c.max(), 1e-6)
        let dot = RGBColor(r: UInt8(255 * c.x / peak), g: UInt8(255 * c.y / peak), b: UInt8(255 * c.z / peak))
        if d.z <= 0 {
            image.fillCircle(center: SIMD2<Float>(tipX, tipY), radius: 4, color: dot)
        } else {
            image.drawCircle(center: SIMD2<Float>(tipX, tipY), radius: 4, color: dot)
        }
        let text = String(format: "%.0f K  amb %.0f  key %.0f", estimate.ambientColorTemperature, estimate.ambientIntensity,
                          estimate.primaryLightIntensity)
        image.drawText(text, atX: max(0, centreX - radius), y: min(image.height - 10, centreY + radius + 4), color: .white)
    }
}
