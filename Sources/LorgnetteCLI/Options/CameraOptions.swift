import ArgumentParser
import Pipeline

/// `--camera FILE` and `--fov DEG|auto`: where the pinhole intrinsics come from, declared once for
/// `live`, `track` and `measure`.
struct CameraOptions: ParsableArguments {
    @Option(help: "Camera calibration: the project's JSON (fx, fy, cx, cy, optional k1, k2, p1, p2, k3, width, height) or an OpenCV FileStorage .yml/.json (camera_matrix, distortion_coefficients, image_width, image_height).")
    var camera: String?

    @Option(help: ArgumentHelp(FieldOfViewOption.help, valueName: "degrees|auto"))
    var fov: String?

    func validate() throws {
        if let fov {
            do { _ = try FieldOfViewOption(parsing: fov) } catch let e as CLIError { throw ValidationError(e.description) }
        }
        if camera != nil && fov != nil { throw ValidationError("give --camera or --fov, not both") }
    }

    /// The pipeline's camera for `input` (nil: a device): the calibration file, the --fov degrees, or
    /// `auto` — by default for recordings that can be opened twice (a pre-scan), else the webcam default.
    func choice(input: String?) throws -> CameraChoice {
        if let camera { return .calibrationFile(camera) }
        switch try fov.map({ try FieldOfViewOption(parsing: $0) }) ?? (FieldOfViewOption.isRecording(input) ? .auto : nil) {
        case .degrees(let degrees): return .horizontalFOV(degrees)
        case .auto: return .estimated
        case nil: return .unknownWebcam
        }
    }

    /// The field of view given in degrees, if any.
    var degrees: Double? { fov.flatMap(Double.init) }

    /// Whether the field of view is to be estimated for a recording (neither a calibration nor degrees).
    var estimatesForRecordings: Bool { camera == nil && (fov == nil || fov?.lowercased() == "auto") }
}
