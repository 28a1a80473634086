import ModelFormat
import Testing

@Suite struct ModelArchiveTests {
    func sample() -> ModelArchive {
        let w = (0..<24).map { Float($0) * 0.37 - 3 }
        return ModelArchive(kind: "TEST", version: 2, metadata: ["features": "hog-128", "seed": "7"], tensors: [
            "w32": .init(shape: [4, 6], values: w, encoding: .float32),
            "w16": .init(shape: [4, 6], values: w, encoding: .float16),
            "w8": .init(shape: [4, 6], values: w, encoding: .int8),
        ])
    }

    @Test func roundTripKeepsMetadataAndValuesWithinEncodingPrecision() throws {
        let bytes = sample().serialized()
        let back = try ModelArchive(bytes: bytes, expectedKind: "TEST", supportedVersions: 1...2)
        #expect(back.version == 2)
        #expect(back.metadata == ["features": "hog-128", "seed": "7"])
        let w = sample().tensors["w32"]!.values
        #expect(try back.tensor("w32").values == w)
        for (a, b) in zip(try back.tensor("w16").values, w) { #expect(abs(a - b) <= 0.002 * max(1, abs(b))) }
        // int8: error at most half a quantisation step of the row's scale (peak / 127).
        let row8 = try back.tensor("w8").values
        for r in 0..<4 {
            let peak = w[(r * 6)..<(r * 6 + 6)].map(abs).max()!
            for j in 0..<6 { #expect(abs(row8[r * 6 + j] - w[r * 6 + j]) <= peak / 127 / 2 + 1e-6) }
        }
        #expect(try back.tensor("w16").shape == [4, 6])
    }

    @Test func refusesWrongKindVersionTruncationAndCorruption() throws {
        let bytes = sample().serialized()
        #expect(throws: ModelArchiveError.wrongKind(found: "TEST", expected: "LMRK")) {
            try ModelArchive(bytes: bytes, expectedKind: "LMRK", supportedVersions: 1...1)
        }
        #expect(throws: ModelArchiveError.unsupportedVersion(kind: "TEST", found: 2, supported: 1...1)) {
            try ModelArchive(bytes: bytes, expectedKind: "TEST", supportedVersions: 1...1)
        }
        #expect(throws: ModelArchiveError.self) {
            try ModelArchive(bytes: Array(bytes.prefix(bytes.count / 2)), expectedKind: "TEST", supportedVersions: 1...2)
        }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x40
        #expect(throws: ModelArchiveError.checksumMismatch(kind: "TEST")) {
            try ModelArchive(bytes: flipped, expectedKind: "TEST", supportedVersions: 1...2)
        }
        #expect(throws: ModelArchiveError.notAModel(expectedKind: "TEST")) {
            try ModelArchive(bytes: Array("GIF89a-not-a-model-at-all".utf8), expectedKind: "TEST", supportedVersions: 1...2)
        }
        #expect(throws: ModelArchiveError.missingTensor(kind: "TEST", name: "bias")) {
            try sample().tensor("bias")
        }
    }

    @Test func crcMatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    /// The eight-bytes-a-step checksum against the textbook bit-by-bit definition, for every length
    /// and start offset around the eight-byte steps, through each entry point (array, slice, raw buffer).
    @Test func crcEqualsTheBitwiseDefinitionAtEveryLengthAndOffset() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return c ^ 0xFFFF_FFFF
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<4200).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for start in 0..<9 {
            for length in [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 100, 4096 + 3] {
                let slice = bytes[start..<(start + length)]
                let expected = bitwise(slice)
                #expect(CRC32.checksum(slice) == expected, "start \(start), length \(length)")
                #expect(CRC32.checksum(Array(slice)) == expected)
                #expect(Array(slice).withUnsafeBytes { CRC32.checksum($0) } == expected)
            }
        }
    }
}
