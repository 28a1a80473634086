import ArgumentParser
import Foundation
import Synchronization

// Shared console formatting for the commands: errors and warnings on stderr, numbers for summaries.

/// Writes `message` and a newline (unless `newline` is false: a progress bar redrawn in place) to
/// standard error. A full or closed stderr loses the message rather than ending the run
/// (FileHandle's non-throwing `write` raises an exception on EPIPE).
func printError(_ message: String, newline: Bool = true) {
    let bytes = Array((newline ? message + "\n" : message).utf8)
    var done = 0
    while done < bytes.count {
        let r = bytes[done...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if r < 0 && errno == EINTR { continue }
        if r <= 0 { return }
        done += r
    }
}

/// Set when standard output carries frames (`--output -`): the commands' summaries then go to
/// standard error, so the stream stays clean for the program reading it.
let standardOutputCarriesFrames = Atomic<Bool>(false)

/// A command's closing summary: on standard output, or on standard error while it carries frames.
func printSummary(_ line: String) {
    if standardOutputCarriesFrames.load(ordering: .relaxed) { printError(line) } else { print(line) }
}

/// Prints a source's recoverable issues as warnings on standard error (at most 10 lines).
func printIssues(_ issues: [String]) {
    for issue in issues.prefix(10) { printError("warning: \(issue)") }
    if issues.count > 10 { printError("warning: ... \(issues.count - 10) more issues (see `lorgnette info`)") }
}

/// "30", "29.97", "22.131".
func formatRate(_ fps: Double) -> String {
    if fps == fps.rounded() { return String(Int(fps)) }
    var s = String(format: "%.3f", fps)
    while s.hasSuffix("0") { s.removeLast() }
    return s
}

/// "8.26 MB", "512 KB", "120 B" (decimal units).
func formatBytes(_ bytes: Int) -> String {
    if bytes >= 1_000_000_000 { return String(format: "%.2f GB", Double(bytes) / 1e9) }
    if bytes >= 1_000_000 { return String(format: "%.2f MB", Double(bytes) / 1e6) }
    if bytes >= 1_000 { return String(format: "%.0f KB", Double(bytes) / 1e3) }
    return "\(bytes) B"
}

/// `error` as one line for the user. Foundation's file errors print as
/// `Error Domain=NSCocoaErrorDomain Code=259 "(null)" UserInfo={...}` on Linux; they become
/// "PATH: reason" (the system's words when Foundation kept them). Every other error already
/// describes itself in one line.
func describe(_ error: any Error) -> String {
    guard let cocoa = error as? CocoaError else { return "\(error)" }
    let path = cocoa.userInfo[NSFilePathErrorKey] as? String ?? (cocoa.userInfo[NSURLErrorKey] as? URL)?.path
    var reason: String
    if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        reason = String(cString: strerror(Int32(underlying.code)))
    } else {
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: reason = "No such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: reason = "Permission denied"
        case .fileReadCorruptFile: reason = "cannot be read (a folder, or not in the expected format)"
        case .fileReadInapplicableStringEncoding: reason = "is not UTF-8 text"
        case .fileWriteOutOfSpace: reason = "No space left on device"
        case .fileWriteVolumeReadOnly: reason = "Read-only file system"
        case .fileReadTooLarge: reason = "is too large to read"
        default: reason = "file error \(cocoa.code.rawValue)"
        }
    }
    return path.map { "\($0): \(reason)" } ?? reason
}

/// A command's body with the engine's error convention: any error becomes one line on standard error,
/// "`prefix`: what went wrong", and exit code 1. An `ExitCode` the body chose passes through, and so does
/// a `ValidationError` when `usageErrors` (the body found a flag wrong: ArgumentParser prints the usage).
func reportingErrors(_ prefix: String, usageErrors: Bool = false, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError where usageErrors {
        throw error
    } catch {
        printError("\(prefix): \(describe(error))")
        throw ExitCode.failure
    }
}
