/// Chooses the format, size and rate to ask a device for, from its enumeration.
///
/// Policy: among the formats we can deliver (JPEG passthrough, YUYV and RGB24/BGR24 we convert or
/// copy), pick the one that comes closest to the requested size, then the one that reaches the
/// requested rate, then by preference: native MJPEG (no CPU conversion, least USB bandwidth), native
/// YUYV, other native formats, and last the formats libv4l2 emulates by converting on the CPU.
/// So a UVC camera that offers 1280x720 at 30 fps only in MJPEG and at 10 fps in YUYV gets MJPEG.
public enum FormatNegotiator {
    /// Formats `V4L2Camera` turns into frames, in order of preference.
    public static let deliverable: [FourCC] = [.mjpeg, .jpeg, .yuyv, .rgb24, .bgr24]

    /// Lower is better; nil when we cannot deliver the format.
    public static func rank(_ format: FormatDescription) -> Int? {
        guard let i = deliverable.firstIndex(of: format.fourcc) else { return nil }
        return format.emulated ? deliverable.count + i : i
    }

    public static func choose(_ request: CaptureRequest, from formats: [FormatDescription], path: String) throws(CaptureError) -> FormatChoice {
        let candidates = formats.filter { format in
            guard rank(format) != nil else { return false }
            guard let wanted = request.format else { return true }
            if wanted == .mjpeg || wanted == .jpeg { return format.fourcc == .mjpeg || format.fourcc == .jpeg }
            return format.fourcc == wanted
        }
        let scored = candidates.map { format -> (choice: FormatChoice, key: (Int, Int, Int)) in
            let (w, h, maxFPS) = nearestSize(format, width: request.width, height: request.height)
            let distance = abs(w - request.width) + abs(h - request.height)
            var shortfall = 0
            if let want = request.framesPerSecond, let have = maxFPS, have < want {
                shortfall = Int(((want - have) * 10).rounded())
            }
            let choice = FormatChoice(fourcc: format.fourcc, width: w, height: h, emulated: format.emulated, maxFramesPerSecond: maxFPS)
            return (choice, (distance, shortfall, rank(format)!))
        }
        guard let best = scored.min(by: { $0.key < $1.key }) else {
            let requested = request.format.map { $0.description } ?? "any format we can decode (MJPG, YUYV, RGB3, BGR3)"
            let available = formats.map { $0.emulated ? "\($0.fourcc) (libv4l2)" : $0.fourcc.description }
            throw .unsupportedFormat(path: path, requested: requested, available: available)
        }
        return best.choice
    }

    /// The size the format offers nearest to the request (ties go to the larger), and its top rate.
    static func nearestSize(_ format: FormatDescription, width: Int, height: Int) -> (Int, Int, Double?) {
        if let best = format.sizes.min(by: { a, b in
            let da = abs(a.width - width) + abs(a.height - height)
            let db = abs(b.width - width) + abs(b.height - height)
            return da != db ? da < db : a.width * a.height > b.width * b.height
        }) {
            return (best.width, best.height, best.maxFramesPerSecond)
        }
        if let range = format.sizeRange {
            let (w, h) = range.nearest(width: width, height: height)
            return (w, h, nil)
        }
        // The driver does not enumerate sizes: ask for the request and let S_FMT adjust it.
        return (width, height, nil)
    }
}
