import Foundation
import Testing

/// Writing an output to /dev/null must leave /dev/null a character device: the CLI opens outputs in
/// place, never by renaming a temporary file over them (which, as root, replaced the device with a
/// regular file for every process on the machine).
@Suite(.serialized, .enabled(if: CLI.available, "lorgnette executable not built next to the tests")) struct OutputDeviceTests {
    static func isCharacterDevice(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR
    }

    @Test func trackJSONToDevNullKeepsTheDevice() throws {
        try #require(Self.isCharacterDevice("/dev/null"), "/dev/null is already not a device on this machine")
        let r = try CLI.run(["track", "--input", "demo", "--frames", "2", "--json", "/dev/null"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.isCharacterDevice("/dev/null"))
    }

    @Test func anUnwritableOutputIsAOneLineError() throws {
        let r = try CLI.run(["track", "--input", "demo", "--frames", "2", "--json", "/nonexistent-dir/out.jsonl"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("cannot write /nonexistent-dir/out.jsonl"))
        #expect(!r.stderr.contains("Fatal error"), "\(r.stderr)")
    }
}
