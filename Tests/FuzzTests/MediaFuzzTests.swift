import Foundation
import Imaging
import JPEGCodec
import Media
import Testing

/// Seeded mutations of MJPEG streams and AVI files, read frame by frame and decoded.
struct MediaFuzzTests {
    /// Every frame of `source`, decoded; a frame that does not decode is skipped (as `info` does).
    static func drain(_ source: FrameSource, _ decoder: TurboJPEGDecoder) throws {
        var frames = 0
        while let frame = try source.nextFrame(), frames < 1000 {
            frames += 1
            if case .jpeg(let bytes) = frame.payload { _ = try? decoder.decodeGray(bytes, scale: .half) }
        }
        source.close()
    }

    @Test("MJPEG: mutated streams read and decode or throw")
    func mjpeg() throws {
        let scratch = try makeFuzzScratch("mjpeg")
        let decoder = TurboJPEGDecoder()
        let seed = FuzzSeeds.jpegs[0] + FuzzSeeds.jpegs[1] + FuzzSeeds.jpegs[0]
        let fields = FuzzSeeds.jpegFields(FuzzSeeds.jpegs[0]) + FuzzSeeds.jpegFields(FuzzSeeds.jpegs[1]).map { $0 + FuzzSeeds.jpegs[0].count }
        fuzz("mjpeg", seeds: [seed], cases: FuzzBudget.cases(0.06), scratch: scratch,
             mutate: { rng, seed in Mutations.binary(seed, fields: fields, using: &rng) }) { input in
            let path = scratch + "/clip.mjpeg"
            FileManager.default.createFile(atPath: path, contents: Data(input))
            try Self.drain(try MJPEGStreamSource(path: path, useSidecar: false), decoder)
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    @Test("AVI: mutated files (OpenDML indexes, idx1, headers) open, read and decode or throw")
    func avi() throws {
        let scratch = try makeFuzzScratch("avi")
        let decoder = TurboJPEGDecoder()
        let seed = try FuzzSeeds.avi(frames: 4, in: scratch)
        let fields = FuzzSeeds.aviFields(seed)
        fuzz("avi", seeds: [seed], cases: FuzzBudget.cases(0.1), scratch: scratch,
             mutate: { rng, seed in Mutations.binary(seed, fields: fields, using: &rng) }) { input in
            let path = scratch + "/clip.avi"
            FileManager.default.createFile(atPath: path, contents: Data(input))
            try Self.drain(try AVIFileSource(path: path), decoder)
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
