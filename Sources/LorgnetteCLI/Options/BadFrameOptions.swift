import ArgumentParser
import Media

/// `--max-bad-frames`: how many undecodable frames in a row a run tolerates. A camera's stream or a
/// damaged file has the odd corrupt frame; one must not end a try-on or a tracking run.
struct BadFrameOptions: ParsableArguments {
    @Option(name: .customLong("max-bad-frames"), help: "Fail after this many undecodable frames in a row (each one is skipped with a warning).")
    var maxBadFrames = 25

    func validate() throws {
        if maxBadFrames < 1 { throw ValidationError("--max-bad-frames must be at least 1") }
    }
}

/// Counts the frames a run skipped because they do not decode, warns about each (the first ten in
/// full, then a count), and ends the run once `limit` come in a row.
struct BadFrames {
    let source: String
    let limit: Int
    private(set) var skipped = 0
    private var inARow = 0

    init(source: String, options: BadFrameOptions) {
        self.source = source
        limit = options.maxBadFrames
    }

    /// Whether `error` is a frame that does not decode (as opposed to a failing source or sink).
    static func isBadFrame(_ error: Error) -> Bool { error is JPEGError }

    /// Records frame `index` as skipped for `error`; throws once `limit` frames in a row failed.
    mutating func skip(frame index: Int, _ error: Error) throws {
        skipped += 1
        inARow += 1
        if skipped <= 10 { printError("warning: \(source): frame \(index) does not decode (\(error)); skipped") }
        if inARow >= limit {
            throw CLIError("\(source): \(inARow) frames in a row do not decode (the last: \(error)); stopping (--max-bad-frames \(limit))")
        }
    }

    /// A frame decoded: the run of bad frames is over.
    mutating func decoded() { inARow = 0 }

    /// `decode()` for frame `index`, or nil when the frame does not decode (skipped and counted, see
    /// `skip`); other errors pass through.
    mutating func decode<T>(frame index: Int, _ decode: () throws -> T) throws -> T? {
        do {
            let value = try decode()
            decoded()
            return value
        } catch where Self.isBadFrame(error) {
            try skip(frame: index, error)
            return nil
        }
    }

    /// ", N undecodable frames skipped" for a summary line, or "".
    var summary: String { skipped == 0 ? "" : ", \(skipped) undecodable frames skipped" }
}
