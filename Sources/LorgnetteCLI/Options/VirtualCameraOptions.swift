import ArgumentParser
import Foundation
import VirtualCamera

extension OutputPixelFormat: ExpressibleByArgument {}

/// `--output` as `live` reads it: a video file, standard output (`-`), or a V4L2 output device
/// (a v4l2loopback virtual camera), told apart by what the path is.
enum LiveOutputTarget: Equatable {
    case file(String)
    case standardOutput
    case device(String)

    /// A character device (or any path under /dev/ named video*) is a device; `-` is standard output.
    init(_ path: String) {
        if path == "-" { self = .standardOutput; return }
        var st = stat()
        let isCharacterDevice = stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR
        let looksLikeDevice = path.hasPrefix("/dev/video") || path.hasPrefix("/dev/v4l/")
        self = isCharacterDevice || looksLikeDevice ? .device(path) : .file(path)
    }
}
