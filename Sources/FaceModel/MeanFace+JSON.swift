import Foundation
import Geometry

/// A mean-face file could not be used; `description` is a one-line reason.
public struct MeanFaceError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension MeanFace {
    /// The `format` field of a mean-face file; files with another format or an unknown version are refused.
    public static let fileFormat = "lorgnette-mean-face"
    public static let fileVersion = 1
    /// Largest coordinate magnitude in a mean-face file, in mm from the origin between the pupils.
    /// A head is about 200 mm across, so every real point is within 150 mm; 1000 mm still accepts a
    /// face in the wrong units by a factor of a few but refuses 1e30, whose squares overflow the
    /// thin-plate spline's kernel (a NaN there became an out-of-bounds access).
    public static let maximumCoordinateMM: Double = 1000

    /// Reads `Models/mean-face.json`: `{"format": "lorgnette-mean-face", "version": 1, "units": "mm",
    /// "landmarks": [[x, y, z] ×68], "pupils": [[x, y, z] ×2], "temples": [...×2], "ears": [...×2], "metadata": {...}}`.
    public init(json data: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data), let dict = object as? [String: Any] else {
            throw MeanFaceError("mean-face file is not a JSON object")
        }
        guard dict["format"] as? String == Self.fileFormat else {
            throw MeanFaceError("not a mean-face file (format is not \"\(Self.fileFormat)\")")
        }
        guard let version = dict["version"] as? Int, version == Self.fileVersion else {
            throw MeanFaceError("mean-face file version \(dict["version"] ?? "missing") is not supported (expected \(Self.fileVersion))")
        }
        guard dict["units"] as? String == "mm" else { throw MeanFaceError("mean-face file units must be \"mm\"") }
        func points(_ key: String, _ count: Int) throws -> [SIMD3<Double>] {
            guard let rows = dict[key] as? [[Any]], rows.count == count else {
                throw MeanFaceError("mean-face file: \"\(key)\" must hold \(count) points")
            }
            return try rows.map { row in
                let values = row.compactMap { ($0 as? NSNumber)?.doubleValue }
                guard values.count == 3, values.allSatisfy(\.isFinite) else {
                    throw MeanFaceError("mean-face file: a point in \"\(key)\" is not three finite numbers")
                }
                guard values.allSatisfy({ abs($0) <= Self.maximumCoordinateMM }) else {
                    throw MeanFaceError("mean-face file: a point in \"\(key)\" (\(values)) lies more than \(Int(Self.maximumCoordinateMM)) mm from the origin between the pupils")
                }
                return SIMD3(values[0], values[1], values[2])
            }
        }
        let metadata = (dict["metadata"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        self.init(landmarks: try points("landmarks", Self.landmarkCount), pupils: try points("pupils", 2),
                  temples: try points("temples", 2), ears: try points("ears", 2), metadata: metadata)
    }

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MeanFaceError("cannot read mean-face file \(path)")
        }
        try self.init(json: data)
    }

    /// The file form, one point per line, coordinates rounded to 0.01 mm.
    public var jsonText: String {
        func fmt(_ v: Double) -> String { String(format: "%.2f", v == 0 ? 0 : v) }
        func list(_ ps: [SIMD3<Double>]) -> String {
            "[\n" + ps.map { "    [\(fmt($0.x)), \(fmt($0.y)), \(fmt($0.z))]" }.joined(separator: ",\n") + "\n  ]"
        }
        let meta = metadata.keys.sorted().map { key in
            let escaped = metadata[key]!.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "    \"\(key)\": \"\(escaped)\""
        }.joined(separator: ",\n")
        return """
        {
          "format": "\(Self.fileFormat)",
          "version": \(Self.fileVersion),
          "units": "mm",
          "frame": "origin between the pupils; x image-right (subject's left), y down, z into the head; pairs image-left first",
          "landmarks": \(list(landmarks)),
          "pupils": \(list(pupils)),
          "temples": \(list(temples)),
          "ears": \(list(ears)),
          "metadata": {
        \(meta)
          }
        }

        """
    }
}
