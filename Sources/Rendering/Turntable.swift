import Imaging
import Meshes

/// The 3D viewer's camera path: an orbit around a model's bounding-box centre, y up, at a fixed
/// elevation, far enough that the whole box stays in view at every angle. Angle 0 looks at the
/// model's front from +z (for a canonical glasses model, the view of someone facing the wearer).
public struct Turntable: Sendable {
    public var centre: SIMD3<Float>
    public var distance: Float
    public var elevationDegrees: Float
    public var fieldOfViewDegrees: Float

    public init(bounds: (min: SIMD3<Float>, max: SIMD3<Float>), width: Int, height: Int,
                elevationDegrees: Float = 12, fieldOfViewDegrees: Float = 30) {
        centre = (bounds.min + bounds.max) / 2
        let radius = simdLength(bounds.max - bounds.min) / 2
        let aspect = min(1, Float(width) / Float(max(height, 1)))
        let halfAngle = fieldOfViewDegrees * .pi / 360
        // The bounding sphere just fits the narrower image side, plus a small margin.
        distance = radius * 1.08 / (sinf(halfAngle) * aspect)
        self.elevationDegrees = elevationDegrees
        self.fieldOfViewDegrees = fieldOfViewDegrees
    }

    /// The camera at `yawDegrees` around the vertical axis (positive turns the model's left side,
    /// +x, towards the camera).
    public func camera(yawDegrees: Float, width: Int, height: Int) -> PinholeCamera {
        var camera = PinholeCamera.perspective(verticalFieldOfViewDegrees: fieldOfViewDegrees, width: width, height: height,
                                               nearPlane: distance * 0.01)
        let yaw = yawDegrees * .pi / 180, pitch = elevationDegrees * .pi / 180
        let offset = SIMD3<Float>(sinf(yaw) * cosf(pitch), sinf(pitch), cosf(yaw) * cosf(pitch)) * distance
        camera.lookAt(eye: centre + offset, target: centre, up: [0, 1, 0])
        return camera
    }

    /// A neutral studio backdrop: a vertical grey gradient, lighter at the top.
    public static func backdrop(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                let t = height > 1 ? Float(y) / Float(height - 1) : 0
                let v = UInt8(226 - 56 * t)
                for x in 0..<width { let o = 3 * (y * width + x); p[o] = v; p[o + 1] = v; p[o + 2] = UInt8(min(255, Int(v) + 4)) }
            }
        }
        return image
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
