import FaceData
import FaceMarkup
import FaceDetection
import Foundation
import Imaging
import Media

/// Loads annotated faces for training or evaluation from folders in the `FaceDataset` layout,
/// keeping the dataset's photo-level split (validation = the 10 % the dataset holds out).
public enum TrainingSet {
    public struct Loaded {
        public var faces: [AnnotatedFace]
        /// Files that could not be read, with the reason.
        public var failures: [(path: String, reason: String)]
    }

    /// Reads the `split` of every folder in `directories` (sorted by file name within each), up to
    /// `limit` faces in total: the first ones, or with `spread` every (count / limit)-th, so a sample
    /// holds every source (the names sort by source: the first 37 validation faces are all AFW, the
    /// hardest). `progress` receives (done, total).
    public static func load(directories: [String], split: FaceDataset.Split, limit: Int? = nil, spread: Bool = false,
                            decoder: StillImageDecoding, progress: (Int, Int) -> Void = { _, _ in }) throws -> Loaded {
        var entries: [FaceDataset.Entry] = []
        for d in directories { entries += try FaceDataset(directory: d).entries(split) }
        if let limit, limit < entries.count {
            let n = max(0, limit), all = entries
            entries = spread ? (0 ..< n).map { all[$0 * all.count / n] } : Array(all.prefix(n))
        }
        var faces: [AnnotatedFace] = []
        var failures: [(String, String)] = []
        for (i, e) in entries.enumerated() {
            do {
                let f = try FaceDataset.load(e, decoder: decoder)
                if f.landmarks.count == IBUG68.count { faces.append(f) } else { failures.append((e.pointsPath, "has \(f.landmarks.count) points, expected 68")) }
            } catch {
                if let error = error as? FaceDataError { failures.append((error.path, error.reason)) } else { failures.append((e.imagePath, "\(error)")) }
            }
            progress(i + 1, entries.count)
        }
        return Loaded(faces: faces, failures: failures)
    }
}
