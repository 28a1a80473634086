import ArgumentParser

/// `--size WxH` of `track`, `live` and `measure`: the size asked of a camera. A file or a photo
/// keeps its own size, so `--size` beside `--input` is refused rather than silently ignored (the
/// user meant something by it), and a malformed size is refused whatever the input.
enum CaptureSizeOption {
    static let defaultSize = "640x480"

    static func validate(_ size: String?, appliesToCamera: Bool) throws {
        guard let size else { return }
        _ = try RecordCommand.parseSize(size)
        if !appliesToCamera {
            throw ValidationError("--size applies to a camera (--device); a file or photo keeps its own size")
        }
    }
}
