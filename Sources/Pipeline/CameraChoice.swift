import Geometry

/// Where the pipeline's pinhole intrinsics come from. The frame size is only known at the first
/// frame, so the choice is resolved then; a calibration taken at another resolution is rescaled.
public enum CameraChoice: Sendable, Equatable {
    /// The documented default for an unknown webcam (`CameraIntrinsics.defaultHorizontalFOVDegrees`).
    case unknownWebcam
    /// A horizontal field of view in degrees, principal point at the image centre.
    case horizontalFOV(Double)
    /// A calibration (e.g. `--camera FILE`), rescaled to the stream when its size differs.
    case calibrated(CameraIntrinsics)
    /// Estimated from the face in the first frames (`FramePipeline.estimateCamera(from:)`, a pre-scan of
    /// the recording before it is played). Until an estimate is made, or when none could be, it is the
    /// unknown-webcam default.
    case estimated
    /// A calibration file (`--camera FILE`: the project's JSON or OpenCV's FileStorage), read for the
    /// stream's size at its first frame.
    case calibrationFile(String)

    public func intrinsics(width: Int, height: Int) throws -> CameraIntrinsics {
        switch self {
        case .calibrationFile(let path): return try CameraIntrinsics(calibrationFile: path, imageWidth: width, imageHeight: height)
        case .unknownWebcam, .estimated: return .defaultWebcam(width: width, height: height)
        case .horizontalFOV(let fov): return CameraIntrinsics(horizontalFOVDegrees: fov, width: width, height: height)
        case .calibrated(let k):
            return k.width == width && k.height == height ? k : k.scaled(toWidth: width, height: height)
        }
    }
}
