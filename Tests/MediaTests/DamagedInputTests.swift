import Foundation
import Media
import Testing

/// Random damage must never crash or hang a reader: it either throws a `MediaError` or
/// delivers frames and reports issues.
@Suite("Damaged containers")
struct DamagedInputTests {
    /// SplitMix64: a fixed-seed generator so failures reproduce.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("AVI with random bytes overwritten (headers, indexes, chunk sizes) or cut short")
    func randomlyDamagedAVI() throws {
        let dir = try TestMedia.temporaryDirectory()
        let clean = dir + "/clean.avi"
        let sink = try AVIFileSink(path: clean, framesPerSecond: 30, segmentLimitBytes: 64 << 10)
        for (i, f) in try TestMedia.frames(60).enumerated() { try sink.write(jpeg: f, timestampSeconds: Double(i) / 30) }
        try sink.finish()
        let original = try TestMedia.read(clean)
        var rng = SeededGenerator(state: 42)
        var opened = 0
        for round in 0..<200 {
            var bytes = original
            let hits = Int.random(in: 1...8, using: &rng)
            for _ in 0..<hits {
                // Mostly the header and index areas, where a damaged size does the most harm.
                let region = Bool.random(using: &rng) ? min(bytes.count, 5000) : bytes.count
                bytes[Int.random(in: 0..<region, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if round % 5 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &rng)) }
            let path = dir + "/damaged.avi"
            try TestMedia.write(bytes, to: path)
            do {
                let source = try AVIFileSource(path: path)
                opened += 1
                var n = 0
                while try source.nextFrame() != nil { n += 1 }
                #expect(n <= 60 * 2)
            } catch is MediaError {
                // A clean refusal is fine.
            }
        }
        #expect(opened > 0)
    }

    @Test("raw MJPEG with random bytes overwritten or inserted")
    func randomlyDamagedMJPEG() throws {
        let dir = try TestMedia.temporaryDirectory()
        let frames = try TestMedia.frames(20)
        let original = frames.flatMap { $0 }
        var rng = SeededGenerator(state: 7)
        for _ in 0..<100 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...20, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                if Bool.random(using: &rng) {
                    bytes[i] = [0xFF, 0xD8, 0xD9, 0xDA, 0x00, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng)!
                } else {
                    bytes.insert(contentsOf: [0xFF, UInt8.random(in: 0...255, using: &rng)], at: i)
                }
            }
            let path = dir + "/damaged.mjpeg"
            try TestMedia.write(bytes, to: path)
            let source = try MJPEGStreamSource(path: path)
            var n = 0
            while let f = try source.nextFrame() {
                guard case .jpeg(let b) = f.payload else { continue }
                #expect(b.count >= 4 && b[0] == 0xFF && b[1] == 0xD8 && b[b.count - 2] == 0xFF && b[b.count - 1] == 0xD9)
                n += 1
            }
            #expect(n <= 40)
        }
    }
}
