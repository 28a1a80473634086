import Foundation

/// Per-frame presentation times stored next to raw MJPEG files, which carry no timing of their own.
///
/// Format (as in `shared/data/videos/videos.json`): a JSON array of objects, each with `file`
/// (the video's file name in the same folder), optionally `fps` (nominal or average rate),
/// `frames` (count) and `frame_times_s` (seconds from the first frame, one per frame).
public struct FrameTimeSidecar: Sendable, Equatable {
    public var framesPerSecond: Double?
    public var frameCount: Int?
    public var frameTimesSeconds: [Double]?

    /// The entry for `videoPath` in `videos.json` beside it, or nil when there is none or it is unreadable.
    public static func lookUp(videoPath: String, sidecarName: String = "videos.json") -> FrameTimeSidecar? {
        let url = URL(fileURLWithPath: videoPath)
        let sidecar = url.deletingLastPathComponent().appendingPathComponent(sidecarName)
        guard let data = try? Data(contentsOf: sidecar),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return nil }
        let name = url.lastPathComponent
        guard let entry = list.first(where: { ($0["file"] as? String) == name }) else { return nil }
        let times = (entry["frame_times_s"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
        return FrameTimeSidecar(
            framesPerSecond: (entry["fps"] as? NSNumber)?.doubleValue,
            frameCount: (entry["frames"] as? NSNumber)?.intValue,
            frameTimesSeconds: times?.isEmpty == false ? times : nil)
    }
}
