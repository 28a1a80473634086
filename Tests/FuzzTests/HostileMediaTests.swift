import Foundation
import Media
import Testing

/// Issue 25's AVI whose OpenDML super index has 1,000,000 entries, each pointing at the whole file.
struct HostileMediaTests {
    static func u16(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(v).littleEndian, Array.init) }
    static func u32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, Array.init) }
    static func u64(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(v).littleEndian, Array.init) }
    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + u32(body.count) + body + (body.count % 2 == 1 ? [0] : []) }
    static func list(_ type: String, _ body: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + body) }

    /// One MJPEG frame, and a super index of `entries` entries of (offset 0, size 4 GB - 16).
    static func superIndexAVI(entries: Int) -> [UInt8] {
        let jpeg = FuzzSeeds.jpegs[0]
        var avih = [UInt8](repeating: 0, count: 56)
        avih.replaceSubrange(0..<4, with: u32(40_000)); avih.replaceSubrange(16..<20, with: u32(1))
        avih.replaceSubrange(32..<36, with: u32(32)); avih.replaceSubrange(36..<40, with: u32(24))
        var strh = [UInt8](repeating: 0, count: 56)
        strh.replaceSubrange(0..<8, with: Array("vidsMJPG".utf8)); strh.replaceSubrange(20..<24, with: u32(1))
        strh.replaceSubrange(24..<28, with: u32(25)); strh.replaceSubrange(32..<36, with: u32(1))
        var strf = [UInt8](repeating: 0, count: 40)
        strf.replaceSubrange(0..<4, with: u32(40)); strf.replaceSubrange(4..<8, with: u32(32)); strf.replaceSubrange(8..<12, with: u32(24))
        strf.replaceSubrange(16..<20, with: Array("MJPG".utf8))
        var indx = u16(4) + [0, 0] + u32(entries) + Array("00dc".utf8) + [UInt8](repeating: 0, count: 12)
        indx.reserveCapacity(indx.count + 16 * entries)
        let entry = u64(0) + u32(0xFFFF_FFF0) + u32(1)
        for _ in 0..<entries { indx += entry }
        let hdrl = list("hdrl", chunk("avih", avih) + list("strl", chunk("strh", strh) + chunk("strf", strf) + chunk("indx", indx)))
        let movi = list("movi", chunk("00dc", jpeg))
        let body = Array("AVI ".utf8) + hdrl + movi
        return Array("RIFF".utf8) + u32(body.count) + body
    }

    @Test("info on an AVI whose super index has 1,000,000 entries pointing at the whole file takes well under a second's work per MB")
    func millionEntrySuperIndex() throws {
        let dir = try makeFuzzScratch("super-index")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = Self.superIndexAVI(entries: 1_000_000)
        #expect(bytes.count > 16_000_000)
        FileManager.default.createFile(atPath: dir + "/forged.avi", contents: Data(bytes))
        let start = Date()
        let source = try AVIFileSource(path: dir + "/forged.avi")
        let seconds = Date().timeIntervalSince(start)
        // Before: every entry re-read the whole 16 MB file (over a minute in a release build).
        #expect(seconds < 10, "opening took \(seconds) s")
        #expect(source.info.frameCount == 1)
        #expect(source.issues.contains { $0.contains("repeats an entry or lies outside the file") })
    }

    /// Found by the fuzz harness at 10x its CI size: a `movi` list whose size is under 4 made a
    /// range that ends before it starts (a trap, undefined behaviour under -Ounchecked).
    @Test("an AVI whose movi LIST declares 2 bytes opens or throws", arguments: [1, 2, 3])
    func tinyMoviList(size: Int) throws {
        let dir = try makeFuzzScratch("tiny-movi")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = try FuzzSeeds.avi(frames: 2, in: dir)
        let movi = try #require((8..<bytes.count - 4).first { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) == "movi" })
        Mutations.write(UInt32(size), at: movi - 4, bigEndian: false, into: &bytes)
        FileManager.default.createFile(atPath: dir + "/tiny.avi", contents: Data(bytes))
        if let source = try? AVIFileSource(path: dir + "/tiny.avi") { while try source.nextFrame() != nil {} }
    }
}
