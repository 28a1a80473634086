import Foundation
import Meshes

/// A pinhole camera with the same intrinsics the tracker uses: focal lengths `fx`, `fy` and
/// principal point `cx`, `cy` in pixels, with the pixel-centre convention of `Imaging` (the centre
/// of the top-left pixel is (0, 0)). Camera space follows OpenCV: +x right, +y down, +z forward
/// (into the scene); a camera-space point (x, y, z) with z > 0 projects to
/// (fx·x/z + cx, fy·y/z + cy). `cameraFromWorld` is the rigid pose taking world points to camera
/// space; units are the scene's (millimetres for the try-on). Points nearer than `nearPlane`
/// (camera z) are clipped away.
public struct PinholeCamera: Sendable {
    public var fx: Float
    public var fy: Float
    public var cx: Float
    public var cy: Float
    public var width: Int
    public var height: Int
    public var cameraFromWorld: Transform3D
    public var nearPlane: Float

    public init(fx: Float, fy: Float, cx: Float, cy: Float, width: Int, height: Int,
                cameraFromWorld: Transform3D = .identity, nearPlane: Float = 1) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.width = width
        self.height = height
        self.cameraFromWorld = cameraFromWorld
        self.nearPlane = nearPlane
    }

    /// Square pixels, principal point at the image centre, the given vertical field of view.
    public static func perspective(verticalFieldOfViewDegrees fov: Float, width: Int, height: Int, nearPlane: Float = 1) -> PinholeCamera {
        let f = Float(height) / 2 / tan(fov * .pi / 360)
        return PinholeCamera(fx: f, fy: f, cx: Float(width - 1) / 2, cy: Float(height - 1) / 2, width: width, height: height,
                             nearPlane: nearPlane)
    }

    /// Places the camera at `eye` looking at `target`, with `up` (world) appearing upwards in the image.
    public mutating func lookAt(eye: SIMD3<Float>, target: SIMD3<Float>, up: SIMD3<Float>) {
        let forward = simdNormalize(target - eye)
        let right = simdNormalize(simdCross(forward, up))
        let down = simdCross(forward, right)
        // Rows of the rotation are the camera axes in world coordinates.
        let r = Transform3D(columns: [right.x, down.x, forward.x], [right.y, down.y, forward.y], [right.z, down.z, forward.z])
        cameraFromWorld = r * Transform3D.translation(-eye)
    }

    /// Pixel position and camera depth of a world point, or nil when it is not in front of the near plane.
    public func project(_ world: SIMD3<Float>) -> (pixel: SIMD2<Float>, depth: Float)? {
        let c = cameraFromWorld.apply(world)
        guard c.z >= nearPlane else { return nil }
        return (SIMD2<Float>(fx * c.x / c.z + cx, fy * c.y / c.z + cy), c.z)
    }
}
