import Foundation
import Imaging
import Inputs
import JPEGCodec
import PNGCodec
import Testing

/// Seeded mutations of JPEG, PNG and Netpbm photos through every decoder that reads them.
struct ImageFuzzTests {
    @Test("JPEG: mutated photos decode or throw, at every DCT scale")
    func jpeg() throws {
        let scratch = try makeFuzzScratch("jpeg")
        let decoder = TurboJPEGDecoder(), photos = PhotoDecoder()
        let fields = FuzzSeeds.jpegs.map(FuzzSeeds.jpegFields)
        fuzz("jpeg", seeds: FuzzSeeds.jpegs, cases: FuzzBudget.cases(0.12), scratch: scratch,
             mutate: { rng, seed in Mutations.binary(seed, fields: fields[FuzzSeeds.jpegs.firstIndex(of: seed)!], using: &rng) }) { input in
            defer { _ = try? decoder.decodeGray(input, scale: .quarter) }
            _ = try? photos.decodeRGB(input)
            let image = try decoder.decodeRGB(input)
            #expect(image.width * image.height <= ImageSizeLimit.maximumPixels)
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    @Test("PNG: mutated images decode or throw")
    func png() throws {
        let scratch = try makeFuzzScratch("png")
        let decoder = LibPNGDecoder(), photos = PhotoDecoder()
        let fields = FuzzSeeds.pngs.map(FuzzSeeds.pngFields)
        fuzz("png", seeds: FuzzSeeds.pngs, cases: FuzzBudget.cases(0.08), scratch: scratch,
             mutate: { rng, seed in
                 // Half the cases get their chunk CRCs recomputed, so the damage reaches libpng's parser.
                 let mutated = Mutations.binary(seed, fields: fields[FuzzSeeds.pngs.firstIndex(of: seed)!], using: &rng)
                 return Bool.random(using: &rng) ? FuzzSeeds.resealedPNG(mutated) : mutated
             }) { input in
            _ = try? photos.decodeRGB(input)
            _ = try decoder.decodePNG(input)
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    @Test("Netpbm: mutated P2/P3 text decodes or throws")
    func netpbm() throws {
        let scratch = try makeFuzzScratch("netpbm")
        let seeds = FuzzSeeds.netpbm.map { Array($0.utf8) }
        fuzz("netpbm", seeds: seeds, cases: FuzzBudget.cases(0.04), scratch: scratch,
             mutate: { rng, seed in Mutations.text(String(decoding: seed, as: UTF8.self), using: &rng) }) { input in
            _ = try NetPBM.decode(input)
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
