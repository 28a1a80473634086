import Foundation

/// The part of OpenCV's `cv::FileStorage` that calibration files use, read without OpenCV: YAML
/// (`%YAML:1.0` from OpenCV ≤ 4, `%YAML 1.2` from 5) and JSON, top-level scalars, flow sequences
/// (`image_size: [ 640, 480 ]`) and `!!opencv-matrix` / `"type_id": "opencv-matrix"` maps (`rows`,
/// `cols`, `dt`, `data` in row-major order). Anything else in the file (strings, nested maps,
/// `calibration_time`, per-view extrinsics) is skipped. XML storage is not read.
enum OpenCVFileStorage {
    /// One top-level value: numbers (a scalar is a 1-element list) or a matrix.
    struct Matrix {
        var rows: Int
        var cols: Int
        var data: [Double]
    }

    enum Value {
        case numbers([Double])
        case matrix(Matrix)
        case other

        /// All the numbers, row-major; nil for a value that is not numeric.
        var numbers: [Double]? {
            switch self {
            case .numbers(let n): return n
            case .matrix(let m): return m.data
            case .other: return nil
            }
        }
    }

    /// Whether the bytes are a FileStorage document rather than the project's own JSON: YAML with a
    /// `%YAML` header or an `!!opencv-matrix` tag, or JSON holding an `"opencv-matrix"` type id.
    static func looksLikeFileStorage(_ data: Data) -> Bool {
        guard let text = String(data: data.prefix(65536), encoding: .utf8) else { return false }
        let head = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        return head.hasPrefix("%YAML") || head.hasPrefix("<?xml") || head.hasPrefix("<opencv_storage")
            || text.contains("!!opencv-matrix") || text.contains("\"opencv-matrix\"")
    }

    static func parse(_ data: Data) throws -> [String: Value] {
        guard let text = String(data: data, encoding: .utf8) else { throw CameraCalibrationError("camera file is not UTF-8 text") }
        let head = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if head.hasPrefix("<") {
            throw CameraCalibrationError("camera file: OpenCV XML storage is not read; save the calibration as .yml or .json")
        }
        return head.hasPrefix("{") ? try parseJSON(data) : try parseYAML(text)
    }

    static func parseJSON(_ data: Data) throws -> [String: Value] {
        guard let object = try? JSONSerialization.jsonObject(with: data), let dict = object as? [String: Any] else {
            throw CameraCalibrationError("camera file is not a JSON object")
        }
        func numbers(_ any: Any) -> [Double]? {
            if let n = any as? NSNumber { return [n.doubleValue] }
            if let list = any as? [Any] {
                var out: [Double] = []
                for item in list {
                    guard let n = item as? NSNumber else { return nil }
                    out.append(n.doubleValue)
                }
                return out
            }
            return nil
        }
        var out: [String: Value] = [:]
        for (key, any) in dict {
            if let map = any as? [String: Any] {
                guard (map["type_id"] as? String) == "opencv-matrix" else { out[key] = .other; continue }
                out[key] = try matrix(key, rows: map["rows"].flatMap(numbers)?.first, cols: map["cols"].flatMap(numbers)?.first,
                                      data: map["data"].flatMap(numbers))
            } else if let n = numbers(any) {
                out[key] = .numbers(n)
            } else {
                out[key] = .other
            }
        }
        return out
    }

    /// Line-based reader for the YAML FileStorage writes: `key: value` at the top level, a tagged or
    /// empty value opening an indented map, `[ ... ]` sequences that may continue over lines.
    static func parseYAML(_ text: String) throws -> [String: Value] {
        // Logical entries: (indent, key, value), a bracketed value joined across its lines.
        var entries: [(indent: Int, key: String, value: String)] = []
        var pending: (indent: Int, key: String, value: String, depth: Int)?
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = String(raw)
            if var p = pending {
                p.value += " " + line.trimmingCharacters(in: .whitespaces)
                p.depth += line.filter { $0 == "[" || $0 == "{" }.count - line.filter { $0 == "]" || $0 == "}" }.count
                if p.depth <= 0 { entries.append((p.indent, p.key, p.value)); pending = nil } else { pending = p }
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("%") || trimmed == "---" || trimmed == "..." { continue }
            guard let colon = colonIndex(trimmed) else { continue }
            let indent = line.prefix { $0 == " " }.count
            var key = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("-") { key = String(key.dropFirst()).trimmingCharacters(in: .whitespaces) }
            if key.count >= 2, key.first == "\"" || key.first == "'", key.last == key.first { key = String(key.dropFirst().dropLast()) }
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            let depth = value.filter { $0 == "[" || $0 == "{" }.count - value.filter { $0 == "]" || $0 == "}" }.count
            if depth > 0 { pending = (indent, key, value, depth) } else { entries.append((indent, key, value)) }
        }
        if let p = pending { throw CameraCalibrationError("camera file: \"\(p.key)\" has an unclosed bracket") }

        var out: [String: Value] = [:]
        var i = 0
        while i < entries.count {
            let e = entries[i]
            i += 1
            guard e.indent == 0 else { continue }  // inside a map that is not read
            if e.value.isEmpty || e.value.hasPrefix("!!") || e.value.hasPrefix("!") {
                // A block map: its more-indented entries follow.
                var fields: [String: String] = [:]
                while i < entries.count, entries[i].indent > e.indent {
                    if fields[entries[i].key] == nil { fields[entries[i].key] = entries[i].value }
                    i += 1
                }
                if e.value.hasPrefix("!!opencv-matrix") {
                    out[e.key] = try matrix(e.key, rows: fields["rows"].flatMap { scalars($0)?.first },
                                            cols: fields["cols"].flatMap { scalars($0)?.first }, data: fields["data"].flatMap(scalars))
                } else {
                    out[e.key] = .other
                }
            } else {
                out[e.key] = scalars(e.value).map(Value.numbers) ?? .other
            }
        }
        return out
    }

    /// The first `:` that ends a key (outside quotes).
    private static func colonIndex(_ s: String) -> String.Index? {
        var quote: Character?
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ":" {
                let next = s.index(after: i)
                if next == s.endIndex || s[next] == " " { return i }
            }
            i = s.index(after: i)
        }
        return nil
    }

    /// A number or a flow sequence of numbers in FileStorage's spelling (`0.`, `1.5e-03`, `.Nan`,
    /// `.Inf`); nil for anything else.
    static func scalars(_ s: String) -> [Double]? {
        var t = s.trimmingCharacters(in: .whitespaces)
        if let hash = t.firstIndex(of: "#") { t = String(t[..<hash]).trimmingCharacters(in: .whitespaces) }
        if t.hasPrefix("[") {
            guard t.hasSuffix("]") else { return nil }
            let body = t.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
            if body.isEmpty { return [] }
            var out: [Double] = []
            for part in body.split(separator: ",") {
                guard let v = number(part.trimmingCharacters(in: .whitespaces)) else { return nil }
                out.append(v)
            }
            return out
        }
        return number(t).map { [$0] }
    }

    private static func number(_ s: String) -> Double? {
        switch s.lowercased() {
        case ".nan": return .nan
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        default: return Double(s)
        }
    }

    private static func matrix(_ key: String, rows: Double?, cols: Double?, data: [Double]?) throws -> Value {
        guard let rows, let cols, let data, rows >= 0, cols >= 0, rows == rows.rounded(), cols == cols.rounded() else {
            throw CameraCalibrationError("camera file: \"\(key)\" is an opencv-matrix without numeric rows, cols and data")
        }
        guard Double(data.count) == rows * cols else {
            throw CameraCalibrationError("camera file: \"\(key)\" is \(Int(rows))x\(Int(cols)) but holds \(data.count) numbers")
        }
        return .matrix(Matrix(rows: Int(rows), cols: Int(cols), data: data))
    }
}

extension CameraIntrinsics {
    /// Keys under which calibration scripts store the camera matrix and the distortion (OpenCV's
    /// sample `calibration.cpp` and tutorial write `camera_matrix` / `distortion_coefficients`).
    static let openCVMatrixKeys = ["camera_matrix", "cameraMatrix", "K", "mtx", "intrinsics"]
    static let openCVDistortionKeys = ["distortion_coefficients", "dist_coeffs", "distCoeffs", "dist_coefs", "D", "dist", "distortion"]

    /// Reads a calibration that OpenCV's `cv::FileStorage` wrote (YAML or JSON), as
    /// `cv2.calibrateCamera` returns it: a 3×3 `camera_matrix` [fx 0 cx; 0 fy cy; 0 0 1] and
    /// `distortion_coefficients` (k1, k2, p1, p2[, k3[, k4, k5, k6[, s1–s4[, τx, τy]]]]).
    ///
    /// - OpenCV's pixel convention is the project's (pixel centres at integers), so cx, cy are taken as
    ///   written.
    /// - k1, k2, p1, p2, k3 map onto `LensDistortion`; the rational (k4–k6), thin-prism and tilted
    ///   terms are not modelled, so a file where any of them is non-zero is refused rather than
    ///   silently mis-undistorted. A skewed camera matrix is refused likewise.
    /// - The calibrated size (`image_width`/`image_height`, or `image_size: [w, h]`), when present and
    ///   different from the frames: the same aspect ratio (within 1 %) is the same sensor read at
    ///   another resolution and the intrinsics are rescaled (`scaled(toWidth:height:)`); another aspect
    ///   ratio means the driver crops, which a file cannot tell, so it is refused. Without a size the
    ///   intrinsics are used for the frames as they are.
    public init(openCVFileStorage data: Data, imageWidth: Int, imageHeight: Int) throws {
        let values = try OpenCVFileStorage.parse(data)
        func first(_ keys: [String]) -> (String, OpenCVFileStorage.Value)? {
            for k in keys { if let v = values[k] { return (k, v) } }
            return nil
        }
        guard let (kKey, kValue) = first(Self.openCVMatrixKeys) else {
            throw CameraCalibrationError("camera file: no camera_matrix (an OpenCV file needs camera_matrix and distortion_coefficients)")
        }
        guard case .matrix(let k) = kValue, k.rows == 3, k.cols == 3 else {
            throw CameraCalibrationError("camera file: \"\(kKey)\" is not a 3x3 opencv-matrix")
        }
        let m = k.data
        guard m.allSatisfy(\.isFinite) else { throw CameraCalibrationError("camera file: \"\(kKey)\" holds a non-finite number") }
        let fx = m[0], fy = m[4], cx = m[2], cy = m[5]
        guard fx > 0, fy > 0 else { throw CameraCalibrationError("camera file: fx and fy must be positive") }
        guard m[3] == 0, m[6] == 0, m[7] == 0, abs(m[8] - 1) < 1e-9 else {
            throw CameraCalibrationError("camera file: \"\(kKey)\" is not a camera matrix [fx 0 cx; 0 fy cy; 0 0 1]")
        }
        guard abs(m[1]) <= 1e-6 * fx else { throw CameraCalibrationError("camera file: a skewed camera matrix (s = \(m[1])) is not supported") }

        var distortion = LensDistortion.none
        if let (dKey, dValue) = first(Self.openCVDistortionKeys) {
            guard let d = dValue.numbers, d.allSatisfy(\.isFinite) else {
                throw CameraCalibrationError("camera file: \"\(dKey)\" is not a list of finite numbers")
            }
            guard [0, 4, 5, 8, 12, 14].contains(d.count) else {
                throw CameraCalibrationError("camera file: \"\(dKey)\" has \(d.count) coefficients (OpenCV writes 4, 5, 8, 12 or 14)")
            }
            if d.count > 5, let i = d.indices.dropFirst(5).first(where: { d[$0] != 0 }) {
                let names = ["k4", "k5", "k6", "s1", "s2", "s3", "s4", "τx", "τy"]
                throw CameraCalibrationError("camera file: distortion term \(names[i - 5]) = \(d[i]) is not supported (only k1, k2, p1, p2, k3): "
                                             + "calibrate without CALIB_RATIONAL_MODEL, CALIB_THIN_PRISM_MODEL and CALIB_TILTED_MODEL")
            }
            if d.count >= 4 { distortion = LensDistortion(k1: d[0], k2: d[1], p1: d[2], p2: d[3], k3: d.count >= 5 ? d[4] : 0) }
        }

        var size: (w: Double, h: Double)?
        if let w = values["image_width"]?.numbers?.first, let h = values["image_height"]?.numbers?.first {
            size = (w, h)
        } else if let s = (values["image_size"] ?? values["imageSize"])?.numbers, s.count == 2 {
            size = (s[0], s[1])
        }
        guard let size else {
            self.init(fx: fx, fy: fy, cx: cx, cy: cy, width: imageWidth, height: imageHeight, distortion: distortion)
            return
        }
        guard size.w >= 1, size.h >= 1, size.w == size.w.rounded(), size.h == size.h.rounded() else {
            throw CameraCalibrationError("camera file: the image size \(size.w)x\(size.h) is not a positive whole number of pixels")
        }
        let calibrated = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: Int(size.w), height: Int(size.h), distortion: distortion)
        if calibrated.width == imageWidth && calibrated.height == imageHeight { self = calibrated; return }
        let aspectFile = size.w / size.h, aspectFrames = Double(imageWidth) / Double(imageHeight)
        guard abs(aspectFile / aspectFrames - 1) <= 0.01 else {
            throw CameraCalibrationError("camera file: calibrated at \(Int(size.w))x\(Int(size.h)) but the frames are \(imageWidth)x\(imageHeight), "
                                         + "another aspect ratio (the camera crops, which the file cannot describe): calibrate at \(imageWidth)x\(imageHeight)")
        }
        self = calibrated.scaled(toWidth: imageWidth, height: imageHeight)
    }
}
