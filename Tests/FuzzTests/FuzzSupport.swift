import Foundation
import Testing

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny seeded generator, so every fuzz case is
/// reproducible from its format's name and its case number.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How many cases each format runs. The default (about 8,000 in all) fits a couple of minutes of
/// a debug build on two cores; `LORGNETTE_FUZZ_CASES=30000` scales every format to that total.
enum FuzzBudget {
    static let defaultTotal = 8_000
    static let total: Int = ProcessInfo.processInfo.environment["LORGNETTE_FUZZ_CASES"].flatMap(Int.init) ?? defaultTotal
    /// `share` of the default total (the shares of all formats add up to about 1).
    static func cases(_ share: Double) -> Int { max(1, Int((Double(total) * share).rounded())) }
}

/// The fuzz loop: case `i` mutates one of `seeds` with a generator seeded by (format, i), and hands
/// the result to `load`, which must return or throw. A crash kills the test process (the failure CI
/// sees); the input of the case being run is in `scratch/current` for reproduction, and the case
/// number is printed when `LORGNETTE_FUZZ_VERBOSE` is set. Returns how many inputs loaded.
@discardableResult
func fuzz(_ format: String, seeds: [[UInt8]], cases: Int, scratch: String,
          mutate: (inout SeededRandom, [UInt8]) -> [UInt8], load: ([UInt8]) throws -> Void) -> Int {
    let verbose = ProcessInfo.processInfo.environment["LORGNETTE_FUZZ_VERBOSE"] != nil
    let formatSeed = format.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
    var loaded = 0, slowest = 0.0, slowestCase = 0
    let start = Date()
    for i in 0..<cases {
        var rng = SeededRandom(seed: formatSeed ^ UInt64(i) &* 0x2545_F491_4F6C_DD1D)
        let seed = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
        let input = mutate(&rng, seed)
        if verbose { print("fuzz \(format) case \(i): \(input.count) bytes") }
        FileManager.default.createFile(atPath: scratch + "/current", contents: Data(input))
        let t0 = Date()
        if (try? load(input)) != nil { loaded += 1 }
        let took = Date().timeIntervalSince(t0)
        if took > slowest { slowest = took; slowestCase = i }
    }
    print("fuzz \(format): \(cases) cases in \(String(format: "%.1f", Date().timeIntervalSince(start))) s, \(loaded) loaded, slowest case \(slowestCase) \(String(format: "%.3f", slowest)) s")
    // A hang shows as one slow case: none may take more than 10 s even in a debug build.
    #expect(slowest < 10, "fuzz \(format): case \(slowestCase) took \(slowest) s")
    return loaded
}

func makeFuzzScratch(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "lorgnette-fuzz-\(name)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// `../shared/data` next to the repository, or nil (tests that need it then skip with a message).
let sharedData: String? = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}()

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
