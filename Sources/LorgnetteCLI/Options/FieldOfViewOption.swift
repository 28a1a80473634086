import Foundation
import Inputs
import Geometry
import PoseEstimation

/// A `--fov` value: a horizontal field of view in degrees, or `auto` (estimated from the face in the first
/// frames, `FieldOfViewScan`). `track` and `live` use `auto` for files when neither `--fov` nor `--camera`
/// is given; cameras keep the 60° unknown-webcam default (a webcam really is about that).
enum FieldOfViewOption: Equatable {
    case degrees(Double)
    case auto

    /// Whether `--input` names a recording whose field of view is estimated by default (not the
    /// embedded demo, a photo moved by a synthetic camera, which keeps the webcam default).
    static func isRecording(_ input: String?) -> Bool {
        guard let input else { return false }
        // The demo has a known camera; a pipe cannot be read twice for the pre-scan.
        guard let kind = InputOpener.kind(of: input) else { return true }
        return kind != .demo && kind.isReopenable
    }

    /// What `--fov` accepts, for help texts.
    static let help = "Horizontal field of view of the camera in degrees (1-179), or 'auto': estimated from the face in the first 30 frames (default for files; \(Int(CameraIntrinsics.defaultHorizontalFOVDegrees)) for cameras)."

    init(parsing text: String) throws {
        if text.lowercased() == "auto" { self = .auto; return }
        guard let value = Double(text), value > 1, value < 179 else {
            throw CLIError("--fov must be 'auto' or between 1 and 179 degrees, got '\(text)'")
        }
        self = .degrees(value)
    }

    /// The one stderr line about an estimate: the value and its basis, or the fallback.
    static func report(_ estimate: FieldOfViewEstimate?) {
        if let estimate {
            printError("camera: \(estimate.summary)")
        } else {
            printError("camera: no face in the first frames to estimate the field of view from; using the unknown-webcam default \(Int(CameraIntrinsics.defaultHorizontalFOVDegrees))°")
        }
    }
}
