import FaceMarkup
import Foundation
import Imaging
import Media

/// A folder of face images with 68-point `.pts` annotations (the layout of
/// `shared/data/faces68/train`: `<name>.jpg` + `<name>.pts`, optionally an `index.csv`).
///
/// The split into training and validation is by *source photo* (AFW has several faces per
/// photo), with a stable hash, so a person never sits on both sides and every run splits alike.
public struct FaceDataset: Sendable {
    public struct Entry: Sendable, Hashable {
        /// File stem, e.g. `helen_1000115_1`.
        public let name: String
        public let imagePath: String
        public let pointsPath: String
        /// The photo this face was cropped from (from index.csv), else the image name.
        public let sourcePhoto: String
    }

    public enum Split: Sendable { case all, training, validation }

    public let directory: String
    public let entries: [Entry]

    /// Lists every image that has a `.pts` next to it. Throws when the folder is unreadable or empty.
    public init(directory: String) throws {
        self.directory = directory
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory])
        }
        var sources: [String: String] = [:]
        let indexPath = directory + "/index.csv"
        if let csv = try? String(contentsOfFile: indexPath, encoding: .utf8) {
            let lines = csv.split(whereSeparator: \.isNewline)
            if let header = lines.first?.split(separator: ",").map(String.init),
               let fileCol = header.firstIndex(of: "file"), let srcCol = header.firstIndex(of: "original_path") {
                for line in lines.dropFirst() {
                    let f = line.split(separator: ",", omittingEmptySubsequences: false)
                    if f.count > max(fileCol, srcCol) { sources[String(f[fileCol])] = String(f[srcCol]) }
                }
            }
        }
        let set = Set(names)
        var entries: [Entry] = []
        for name in names.sorted() {
            let lower = name.lowercased()
            guard StillImageFormat.hasImageExtension(lower) else { continue }
            let stem = String(name[..<name.lastIndex(of: ".")!])
            guard set.contains(stem + ".pts") else { continue }
            entries.append(Entry(name: stem, imagePath: directory + "/" + name, pointsPath: directory + "/" + stem + ".pts",
                                 sourcePhoto: sources[name] ?? stem))
        }
        guard !entries.isEmpty else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no annotated images (.jpg/.png/.pgm + .pts) in \(directory)"])
        }
        self.entries = entries
    }

    /// Entries of one split. Validation is about `validationPercent` % of the source photos.
    public func entries(_ split: Split, validationPercent: Int = 10) -> [Entry] {
        switch split {
        case .all: return entries
        case .training: return entries.filter { !Self.isValidation($0.sourcePhoto, percent: validationPercent) }
        case .validation: return entries.filter { Self.isValidation($0.sourcePhoto, percent: validationPercent) }
        }
    }

    /// FNV-1a over the source photo path: stable across runs and platforms (unlike `hashValue`).
    static func isValidation(_ key: String, percent: Int) -> Bool {
        Int(nameHash(key) % 100) < percent
    }

    /// Loads one face: the image as gray (luma) and its 68 points. The image may be any photo the
    /// decoder reads (the shared data is JPEG; the original 300-W sets also hold PNG).
    /// Every failure is one line naming the file (Foundation's own errors carry no path for a
    /// `.pts` that is not UTF-8: `Error Domain=NSCocoaErrorDomain Code=259`).
    public static func load(_ entry: Entry, decoder: StillImageDecoding) throws -> AnnotatedFace {
        let bytes: [UInt8]
        do {
            let file = try RandomAccessFile(path: entry.imagePath)
            bytes = try file.read(at: 0, count: file.size)
        } catch {
            throw FaceDataError(path: entry.imagePath, reason: "cannot be read")
        }
        let image: GrayImage
        do { image = try decoder.decodeGray(bytes) } catch { throw FaceDataError(path: entry.imagePath, reason: "\(error)") }
        guard let pointsData = FileManager.default.contents(atPath: entry.pointsPath) else {
            throw FaceDataError(path: entry.pointsPath, reason: "cannot be read")
        }
        guard let text = String(validating: pointsData, as: UTF8.self) else {
            throw FaceDataError(path: entry.pointsPath, reason: "not UTF-8 text")
        }
        let points: [SIMD2<Float>]
        do { points = try PTSFile.parse(text) } catch { throw FaceDataError(path: entry.pointsPath, reason: "\(error)") }
        return AnnotatedFace(name: entry.name, image: image, landmarks: points)
    }
}

/// Why one face of a data set cannot be loaded: the file and the reason, one line.
public struct FaceDataError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// One annotated face: a gray image and its landmarks in that image's pixel-centre coordinates.
public struct AnnotatedFace: Sendable {
    public let name: String
    public var image: GrayImage
    public var landmarks: [SIMD2<Float>]

    public init(name: String, image: GrayImage, landmarks: [SIMD2<Float>]) {
        self.name = name
        self.image = image
        self.landmarks = landmarks
    }

    /// The same face flipped left-right, with landmark indices remapped (mirror augmentation).
    public func mirrored() -> AnnotatedFace {
        var flipped = GrayImage(width: 0, height: 0)
        flipped.setMirrored(of: image)
        return AnnotatedFace(name: name + "#mirror", image: flipped, landmarks: IBUG68.mirrored(landmarks, imageWidth: image.width))
    }
}
