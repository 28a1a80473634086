import Imaging
import JPEGCodec
import Media
import Testing

/// Broken input must become a typed Swift error with libjpeg's words, never a crash.
@Suite struct JPEGDamageTests {
    let decoder = TurboJPEGDecoder()
    let jpeg: [UInt8]

    init() throws {
        jpeg = try TurboJPEGEncoder().encode(TestImages.scene(width: 320, height: 240), quality: 85)
    }

    @Test func truncatedStreamIsAnErrorNamingTheTruncation() throws {
        let cut = Array(jpeg.prefix(jpeg.count * 2 / 3))
        var image = GrayImage(width: 0, height: 0)
        do {
            try decoder.decodeGray(cut, scale: .full, into: &image)
            Issue.record("truncated JPEG decoded without error")
        } catch let error as JPEGError {
            guard case .truncated(let message) = error else { Issue.record("expected .truncated, got \(error)"); return }
            #expect(message.lowercased().contains("premature end"), "libjpeg message: \(message)")
        }
        // The decoder is still usable after the failure.
        #expect(try decoder.decodeGray(jpeg).width == 320)
    }

    @Test func garbageAndEmptyInputAreErrors() {
        #expect(throws: JPEGError.self) { _ = try decoder.decodeRGB([]) }
        #expect(throws: JPEGError.self) { _ = try decoder.decodeRGB(Array("not a jpeg at all".utf8)) }
        #expect(throws: JPEGError.self) { _ = try decoder.readSize([0xFF, 0xD8, 0xFF]) }
    }

    @Test func corruptHeaderIsACorruptError() {
        var bad = jpeg
        // Overwrite the SOF0 segment's precision/size with nonsense.
        if let sof = (0..<(bad.count - 1)).first(where: { bad[$0] == 0xFF && bad[$0 + 1] == 0xC0 }) {
            bad[sof + 4] = 3 // 3-bit precision is invalid
        }
        #expect(throws: JPEGError.self) { _ = try decoder.decodeGray(bad) }
    }

    @Test func headerDeclaringZeroSizeIsEmptyImageError() {
        var bad = jpeg
        let sof = (0..<(bad.count - 1)).first(where: { bad[$0] == 0xFF && bad[$0 + 1] == 0xC0 })!
        bad[sof + 5] = 0; bad[sof + 6] = 0; bad[sof + 7] = 0; bad[sof + 8] = 0
        // Keep only the header: a "header-only" JPEG with 0x0 size.
        let sos = JPEGHuffmanTables.scanHeader(bad)!.sosOffset
        let headerOnly = Array(bad[0..<sos]) + [0xFF, 0xD9]
        do {
            _ = try decoder.decodeGray(headerOnly)
            Issue.record("0x0 JPEG decoded")
        } catch let error as JPEGError {
            // libjpeg itself refuses a 0 dimension ("Empty JPEG image") or we do; both are errors.
            #expect(error == .emptyImage || { if case .corrupt = error { return true }; return false }())
        } catch { Issue.record("unexpected error \(error)") }
    }

    @Test func flippedBitsInTheScanNeverCrash() throws {
        var rng = SplitMix(seed: 42)
        let sos = JPEGHuffmanTables.scanHeader(jpeg)!.sosOffset
        for _ in 0..<200 {
            var bad = jpeg
            for _ in 0..<8 { bad[sos + 20 + Int(rng.next() % UInt64(bad.count - sos - 22))] = UInt8(truncatingIfNeeded: rng.next()) }
            // Either decodes (libjpeg resyncs) or throws; must not crash or hang.
            _ = try? decoder.decodeRGB(bad)
        }
        #expect(try decoder.decodeRGB(jpeg).width == 320)
    }

    @Test func strictModeRefusesFramesWithCorruptDataWarnings() throws {
        let strict = TurboJPEGDecoder(strict: true)
        // Junk before EOI makes libjpeg warn ("extraneous bytes before marker"); the entropy
        // decoder prefetches a few bytes silently, so the junk must be longer than that.
        let junk = Array(jpeg.dropLast(2)) + [UInt8](repeating: 0x5A, count: 64) + [0xFF, 0xD9]
        _ = try decoder.decodeGray(junk)
        #expect(decoder.lastWarningCount > 0)
        #expect(throws: JPEGError.self) { _ = try strict.decodeGray(junk) }
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
