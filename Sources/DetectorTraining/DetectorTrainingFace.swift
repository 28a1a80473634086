import FaceData
import FaceDetection
import Foundation
import Imaging
import Media

/// One annotated face prepared for detector training or evaluation: its image, its canonical box
/// (`FaceBox.canonical`), the part of the image that is real photo rather than crop padding, and
/// whether the image may show other, unannotated faces (AFW crops), in which case face-sized
/// windows away from the annotated face are not used as negatives.
///
/// Rectangles are in the image's pixel-centre coordinates (a full image is x -0.5 ..< width - 0.5).
public struct DetectorTrainingFace: Sendable {
    public var name: String
    public var image: GrayImage
    public var box: FaceBox
    public var valid: FaceBox
    public var mayContainOtherFaces: Bool

    /// The left-right mirror image (mirror augmentation).
    public func mirrored() -> DetectorTrainingFace {
        var flipped = GrayImage(width: 0, height: 0)
        flipped.setMirrored(of: image)
        let w = image.width
        return DetectorTrainingFace(name: name + "#mirror", image: flipped, box: box.mirrored(imageWidth: w), valid: valid.mirrored(imageWidth: w),
                                    mayContainOtherFaces: mayContainOtherFaces)
    }

    /// Loads the faces of one split of an annotated folder (`FaceDataset` layout). The valid region
    /// and the source set come from its `index.csv` when present (`valid_x0...` in pixel-edge
    /// coordinates, `source_set == afw` meaning other faces may be present); without it the whole
    /// image is taken as valid.
    /// With `limit`, only that many entries, spread evenly over the (sorted) split, are decoded.
    public static func load(directory: String, split: FaceDataset.Split, decoder: StillImageDecoding, limit: Int? = nil,
                            progress: (Int, Int) -> Void = { _, _ in }) throws -> [DetectorTrainingFace] {
        let dataset = try FaceDataset(directory: directory)
        let index = CropIndex(directory: directory)
        var entries = dataset.entries(split)
        if let limit, limit >= 0, entries.count > limit {
            let step = Double(entries.count) / Double(max(limit, 1))
            entries = (0 ..< limit).map { entries[Int(Double($0) * step)] }
        }
        var faces: [DetectorTrainingFace] = []
        faces.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            let face = try FaceDataset.load(entry, decoder: decoder)
            let file = URL(fileURLWithPath: entry.imagePath).lastPathComponent
            let w = Float(face.image.width), h = Float(face.image.height)
            var valid = FaceBox(x: -0.5, y: -0.5, width: w, height: h)
            var crowded = entry.name.hasPrefix("afw_")
            if let row = index.rows[file] {
                valid = FaceBox(x: row.validX0 - 0.5, y: row.validY0 - 0.5,
                                width: row.validX1 - row.validX0, height: row.validY1 - row.validY0)
                crowded = row.sourceSet == "afw"
            }
            faces.append(DetectorTrainingFace(name: entry.name, image: face.image, box: FaceBox.canonical(landmarks: face.landmarks),
                                              valid: valid, mayContainOtherFaces: crowded))
            progress(i + 1, entries.count)
        }
        return faces
    }
}

/// The columns of a faces68 `index.csv` the detector trainer needs, by crop file name.
struct CropIndex {
    struct Row { var sourceSet: String; var validX0, validY0, validX1, validY1: Float }
    var rows: [String: Row] = [:]

    init(directory: String) {
        guard let csv = try? String(contentsOfFile: directory + "/index.csv", encoding: .utf8) else { return }
        let lines = csv.split(whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return }
        func col(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let file = col("file"), let set = col("source_set"), let x0 = col("valid_x0"), let y0 = col("valid_y0"),
              let x1 = col("valid_x1"), let y1 = col("valid_y1") else { return }
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count > max(file, set, x0, y0, x1, y1),
                  let a = Float(f[x0]), let b = Float(f[y0]), let c = Float(f[x1]), let d = Float(f[y1]), c > a, d > b else { continue }
            rows[String(f[file])] = Row(sourceSet: String(f[set]), validX0: a, validY0: b, validX1: c, validY1: d)
        }
    }
}
