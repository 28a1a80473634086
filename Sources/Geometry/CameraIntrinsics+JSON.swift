import Foundation

/// A calibration file could not be used; `description` is a one-line reason.
public struct CameraCalibrationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension CameraIntrinsics {
    /// Reads a calibration file: a JSON object with `fx`, `fy`, `cx`, `cy` in pixels (pixel-centre
    /// convention), optional distortion `k1`, `k2`, `p1`, `p2`, `k3` (OpenCV's meaning), and optional `width`,
    /// `height` (the calibrated resolution; when present and different from the stream the intrinsics
    /// are rescaled). `imageWidth`/`imageHeight` are the stream's size.
    ///
    ///     {"fx": 600, "fy": 600, "cx": 319.5, "cy": 239.5, "k1": -0.05, "k2": 0.01, "width": 640, "height": 480}
    public init(calibrationJSON data: Data, imageWidth: Int, imageHeight: Int) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data), let dict = object as? [String: Any] else {
            throw CameraCalibrationError("camera file is not a JSON object")
        }
        func number(_ key: String, required: Bool) throws -> Double? {
            guard let value = dict[key] else {
                if required { throw CameraCalibrationError("camera file lacks \"\(key)\"") }
                return nil
            }
            guard let n = value as? NSNumber, n.doubleValue.isFinite else {
                throw CameraCalibrationError("camera file: \"\(key)\" is not a finite number")
            }
            return n.doubleValue
        }
        let fx = try number("fx", required: true)!, fy = try number("fy", required: true)!
        let cx = try number("cx", required: true)!, cy = try number("cy", required: true)!
        guard fx > 0, fy > 0 else { throw CameraCalibrationError("camera file: fx and fy must be positive") }
        let distortion = LensDistortion(k1: try number("k1", required: false) ?? 0, k2: try number("k2", required: false) ?? 0,
                                        p1: try number("p1", required: false) ?? 0, p2: try number("p2", required: false) ?? 0,
                                        k3: try number("k3", required: false) ?? 0)
        let w = try number("width", required: false), h = try number("height", required: false)
        if let w, let h {
            guard w >= 1, h >= 1 else { throw CameraCalibrationError("camera file: width and height must be positive") }
            let calibrated = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: Int(w), height: Int(h), distortion: distortion)
            self = calibrated.scaled(toWidth: imageWidth, height: imageHeight)
        } else {
            self.init(fx: fx, fy: fy, cx: cx, cy: cy, width: imageWidth, height: imageHeight, distortion: distortion)
        }
    }

    /// Reads a calibration file in any of the accepted forms: the project's JSON (above), or what
    /// OpenCV's `cv::FileStorage` writes after a calibration, YAML or JSON (`init(openCVFileStorage:)`).
    public init(calibrationFile path: String, imageWidth: Int, imageHeight: Int) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CameraCalibrationError("cannot read camera file \(path)")
        }
        if OpenCVFileStorage.looksLikeFileStorage(data) {
            try self.init(openCVFileStorage: data, imageWidth: imageWidth, imageHeight: imageHeight)
        } else {
            try self.init(calibrationJSON: data, imageWidth: imageWidth, imageHeight: imageHeight)
        }
    }

    /// The calibration file form of these intrinsics (round-trips through `init(calibrationJSON:)`).
    public var calibrationJSON: String {
        "{\"fx\": \(fx), \"fy\": \(fy), \"cx\": \(cx), \"cy\": \(cy), \"k1\": \(distortion.k1), \"k2\": \(distortion.k2), "
            + "\"p1\": \(distortion.p1), \"p2\": \(distortion.p2), \"k3\": \(distortion.k3), \"width\": \(width), \"height\": \(height)}"
    }
}
