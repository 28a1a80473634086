import Foundation

/// A pinhole camera with optional lens distortion: a camera-space point `(x, y, z)` in any unit,
/// `z > 0` in front of the camera, projects to pixel `(fx · x_d + cx, fy · y_d + cy)` where
/// `(x_d, y_d)` is `distortion.distort((x/z, y/z))`.
///
/// Pixel coordinates use the pixel-centre convention (the centre of the top-left pixel is (0, 0)),
/// so the image centre of a W×H image is ((W−1)/2, (H−1)/2). Camera axes: x right, y down, z forward.
/// The same intrinsics serve pose estimation and rendering, so overlays stay aligned off-centre.
public struct CameraIntrinsics: Sendable, Equatable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double
    public var distortion: LensDistortion
    /// The image size the intrinsics describe.
    public var width: Int
    public var height: Int

    public init(fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int, distortion: LensDistortion = .none) {
        self.fx = fx; self.fy = fy; self.cx = cx; self.cy = cy
        self.width = width; self.height = height
        self.distortion = distortion
    }

    /// The default horizontal field of view for an unknown webcam, in degrees. Built-in laptop and
    /// USB webcams span roughly 55–78° diagonal (≈ 50–70° horizontal); 60° sits in the middle, and
    /// a wrong guess mostly scales the estimated distance, not the rotation.
    public static let defaultHorizontalFOVDegrees = 60.0

    /// Square pixels, principal point at the image centre, no distortion, focal length from the
    /// horizontal field of view: `fx = (W/2) / tan(fov/2)`.
    public init(horizontalFOVDegrees fov: Double, width: Int, height: Int) {
        let f = Double(width) / 2 / Foundation.tan(fov * Double.pi / 360)
        self.init(fx: f, fy: f, cx: Double(width - 1) / 2, cy: Double(height - 1) / 2, width: width, height: height)
    }

    /// `defaultHorizontalFOVDegrees` for an image of this size.
    public static func defaultWebcam(width: Int, height: Int) -> CameraIntrinsics {
        CameraIntrinsics(horizontalFOVDegrees: defaultHorizontalFOVDegrees, width: width, height: height)
    }

    public var horizontalFOVDegrees: Double { 2 * Foundation.atan(Double(width) / 2 / fx) * 180 / Double.pi }

    /// The same camera at another resolution (same field of view, e.g. a calibration made at 1280x720
    /// used on a 640x360 stream). Pixel-centre convention: a pixel edge at −0.5 maps to −0.5.
    public func scaled(toWidth w: Int, height h: Int) -> CameraIntrinsics {
        let sx = Double(w) / Double(width), sy = Double(h) / Double(height)
        return CameraIntrinsics(fx: fx * sx, fy: fy * sy, cx: (cx + 0.5) * sx - 0.5, cy: (cy + 0.5) * sy - 0.5,
                                width: w, height: h, distortion: distortion)
    }

    // MARK: Projection

    /// Pixel position of a camera-space point (distortion applied). The point must have z > 0.
    @inlinable public func project(_ p: SIMD3<Double>) -> SIMD2<Double> {
        pixel(normalised: SIMD2(p.x / p.z, p.y / p.z))
    }

    /// Pixel position of a normalised undistorted image coordinate.
    @inlinable public func pixel(normalised n: SIMD2<Double>) -> SIMD2<Double> {
        let d = distortion.isNone ? n : distortion.distort(n)
        return SIMD2(fx * d.x + cx, fy * d.y + cy)
    }

    /// The normalised undistorted coordinate (x/z, y/z) seen at a pixel.
    public func normalised(pixel p: SIMD2<Double>) -> SIMD2<Double> {
        distortion.undistort(SIMD2((p.x - cx) / fx, (p.y - cy) / fy))
    }

    /// Where a pixel would be seen by the same camera without lens distortion.
    public func undistortedPixel(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let n = normalised(pixel: p)
        return SIMD2(fx * n.x + cx, fy * n.y + cy)
    }

    /// These intrinsics without distortion (what a pose solver sees after `undistortedPixel`).
    public var withoutDistortion: CameraIntrinsics {
        var c = self
        c.distortion = .none
        return c
    }
}
