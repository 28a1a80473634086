import ArgumentParser
import Foundation
import Inputs
import Landmarks
import Pipeline
import PreviewServer

/// `lorgnette landmarks IMAGE...`: every face in each image with its 68 landmarks.
struct LandmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Find faces and their 68 landmarks (iBUG 300-W order) in photographs (JPEG, PNG, PGM/PPM).",
        discussion: """
            Coordinates are 0-based pixels of the upright image a photo viewer shows (a JPEG's EXIF \
            orientation applied; width and height are that image's): the centre of the top-left pixel \
            is (0, 0). The format is read from the file's content (JPEG, PNG, PGM/PPM), not its name; \
            PNG transparency is flattened over white. With --json \
            each image gives one line:
            {"image": "<path as given>", "width": W, "height": H, "faces": [{"box": [x, y, w, h], \
            "score": s, "landmarks": [[x, y], ...68], "pupils": [[x, y], [x, y]]}]}
            The first pupil is the eye of points 36-41 (image left); pupils are refined inside the eyes \
            (iris centre; the eye-contour centre when an eye is closed). Each face is fitted in \
            detection mode: refitted from the box its first fit implies, and from moved and scaled \
            boxes when the tracking-confidence model (when it matches the landmark model) doubts the \
            fit; each face is also fitted in its mirror image (the crop around it flipped left-right, \
            points mapped back) and the two fits averaged (--mirror none: the direct fit alone). Faces of any size are found, including faces that fill the frame or are cut by its \
            edge (the detector's pyramid is padded with black); on photos over 6 megapixels the \
            smallest face found grows with the photo (about 90 px wide at 12 megapixels). A detection \
            whose fit the tracking-confidence model judges not to be a face is dropped, and faces are \
            listed best-judged first. An unreadable image prints an error on standard \
            error, the other images still run, and the exit status is non-zero.
            """
    )

    @Argument(help: "Photographs: JPEG, PNG, PGM/PPM (by content).")
    var images: [String]

    @Flag(help: "One JSON object per line per image.")
    var json = false

    @Option(help: "Landmark model file (default: Models/landmarks.lmrk).")
    var model: String?

    @Option(help: "Face detector model file (default: Models/face-detector.fdet).")
    var detector: String?

    @Option(help: "Also fit each face's mirror image and average the two fits: mean (default) or none (the direct fit alone, as before).")
    var mirror = "mean"

    func run() throws {
        let landmarker: PhotoLandmarker
        do {
            guard ["mean", "none"].contains(mirror) else { throw ValidationError("--mirror must be mean or none") }
            landmarker = try PipelineFactory.makePhotoLandmarker(models: PipelineFactory.TrackingModels(landmarkModel: model, detectorModel: detector),
                                                                 mirror: try DetectionRefinementOptions.mirror(mirror))
        } catch {
            printError("landmarks: \(describe(error))")
            throw ExitCode.failure
        }
        var failed = 0
        for path in images {
            let found: PhotoLandmarks
            do {
                let payload = try InputOpener.readPhoto(path)
                do { found = try landmarker.landmarks(in: payload) } catch { throw InputError("\(path): \(error)") }
            } catch {
                printError("\(error)")
                failed += 1
                continue
            }
            print(json ? Self.jsonLine(path: path, photo: found) : Self.textReport(path: path, photo: found))
        }
        if failed > 0 { throw ExitCode.failure }
    }

    static func number(_ v: Float) -> String {
        let s = String(format: "%.2f", v)
        return s == "-0.00" ? "0.00" : s
    }

    /// The exact line format of the issue: keys in this order, coordinates with two decimals.
    static func jsonLine(path: String, photo: PhotoLandmarks) -> String {
        let faceObjects = photo.faces.map { face -> String in
            let box = face.box, refined = face.pupils
            let points = face.landmarks.map { "[\(number($0.x)), \(number($0.y))]" }.joined(separator: ", ")
            let eyes = (left: refined[0], right: refined[1])
            return "{\"box\": [\(number(box.x)), \(number(box.y)), \(number(box.width)), \(number(box.height))], "
                + "\"score\": \(String(format: "%.3f", box.score)), \"landmarks\": [\(points)], "
                + "\"pupils\": [[\(number(eyes.left.x)), \(number(eyes.left.y))], [\(number(eyes.right.x)), \(number(eyes.right.y))]]}"
        }
        return "{\"image\": \(JSONString.quoted(path)), \"width\": \(photo.width), \"height\": \(photo.height), \"faces\": [\(faceObjects.joined(separator: ", "))]}"
    }

    static func textReport(path: String, photo: PhotoLandmarks) -> String {
        var s = "\(path): \(photo.width)x\(photo.height), \(photo.faces.count) face\(photo.faces.count == 1 ? "" : "s")"
        for (i, face) in photo.faces.enumerated() {
            let box = face.box, shape = face.landmarks
            let eyes = (left: face.pupils[0], right: face.pupils[1])
            s += "\n  face \(i + 1): box \(number(box.x)) \(number(box.y)) \(number(box.width)) \(number(box.height)), score \(String(format: "%.3f", box.score))"
            s += "\n    pupils (\(number(eyes.left.x)), \(number(eyes.left.y))) (\(number(eyes.right.x)), \(number(eyes.right.y)))"
            s += "\n    landmarks " + shape.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
        }
        return s
    }
}
