/// Mutations of binary and text inputs: the damage a file picks up in transit (bit flips,
/// truncation, lost or repeated ranges) and the forgeries of the hostile-input sweep (extreme
/// numbers written into header fields, NaN and infinity in text formats).
enum Mutations {
    static let extremeU32: [UInt32] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF, 30_000, 65_500, 0x0100_0000, 0x4000_0000]
    static let extremeU16: [UInt16] = [0, 1, 0x7FFF, 0x8000, 0xFFFF, 30_000, 65_500]
    static let extremeFloats: [Float] = [.nan, .infinity, -.infinity, 3e38, -3e38, 1e30, .leastNonzeroMagnitude]
    static let extremeNumbers = ["nan", "NaN", "inf", "-inf", "1e39", "-1e39", "1e30", "3e38", "1e400", "-1", "0", "-0",
                                 "4611686018427387904", "9223372036854775807", "-9223372036854775808", "2147483648",
                                 "4294967296", "1e-45", "0.5", "65535", "30000"]

    /// 1-4 binary mutations; `fields` are offsets of header fields worth hitting with extreme values.
    static func binary(_ input: [UInt8], fields: [Int] = [], using rng: inout SeededRandom) -> [UInt8] {
        var b = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !b.isEmpty else { return b }
            let at = Int.random(in: 0..<b.count, using: &rng)
            let field = fields.filter { $0 < b.count }.randomElement(using: &rng) ?? at
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: b[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            case 2: b[at] = [0, 0xFF, 0x7F, 0x80, 1].randomElement(using: &rng)!
            case 3, 4: write(extremeU32.randomElement(using: &rng)!, at: field, bigEndian: Bool.random(using: &rng), into: &b)
            case 5: write16(extremeU16.randomElement(using: &rng)!, at: field, bigEndian: Bool.random(using: &rng), into: &b)
            case 6: b.removeLast(Int.random(in: 0..<b.count, using: &rng))  // truncate
            case 7:
                let end = min(b.count, at + Int.random(in: 1...64, using: &rng))
                b.removeSubrange(at..<end)
            case 8:
                let end = min(b.count, at + Int.random(in: 1...64, using: &rng))
                b.insert(contentsOf: b[at..<end], at: Int.random(in: at...b.count, using: &rng))
            default: write(extremeFloats.randomElement(using: &rng)!.bitPattern, at: at & ~3, bigEndian: false, into: &b)
            }
        }
        return b
    }

    /// 1-3 text mutations: numbers replaced by extremes, lines deleted or repeated, truncation.
    static func text(_ input: String, using rng: inout SeededRandom) -> [UInt8] {
        var s = input
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0...3:
                let numbers = numberRanges(in: s)
                guard let r = numbers.randomElement(using: &rng) else { continue }
                s.replaceSubrange(r, with: extremeNumbers.randomElement(using: &rng)!)
            case 4:
                var lines = s.split(separator: "\n", omittingEmptySubsequences: false)
                guard !lines.isEmpty else { continue }
                lines.remove(at: Int.random(in: 0..<lines.count, using: &rng))
                s = lines.joined(separator: "\n")
            case 5:
                var lines = s.split(separator: "\n", omittingEmptySubsequences: false)
                guard !lines.isEmpty else { continue }
                let i = Int.random(in: 0..<lines.count, using: &rng)
                lines.insert(lines[i], at: i)
                s = lines.joined(separator: "\n")
            case 6: s = String(s.prefix(Int.random(in: 0...s.count, using: &rng)))
            default:
                var b = Array(s.utf8)
                guard !b.isEmpty else { continue }
                b[Int.random(in: 0..<b.count, using: &rng)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                return b  // possibly no longer UTF-8: loaders must refuse that too
            }
        }
        return Array(s.utf8)
    }

    /// Ranges of decimal numbers (sign, digits, fraction, exponent) in `s`.
    static func numberRanges(in s: String) -> [Range<String.Index>] {
        var out: [Range<String.Index>] = []
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c.isASCII && (c.isNumber || ((c == "-" || c == ".") && s.index(after: i) < s.endIndex && s[s.index(after: i)].isNumber)) {
                var j = s.index(after: i)
                while j < s.endIndex, s[j].isASCII, s[j].isNumber || s[j] == "." || s[j] == "e" || s[j] == "E" || s[j] == "-" || s[j] == "+" { j = s.index(after: j) }
                out.append(i..<j)
                i = j
            } else {
                i = s.index(after: i)
            }
        }
        return out
    }

    static func write(_ v: UInt32, at offset: Int, bigEndian: Bool, into b: inout [UInt8]) {
        for k in 0..<4 where offset + k < b.count {
            let shift = bigEndian ? 8 * (3 - k) : 8 * k
            b[offset + k] = UInt8(truncatingIfNeeded: v >> UInt32(shift))
        }
    }

    static func write16(_ v: UInt16, at offset: Int, bigEndian: Bool, into b: inout [UInt8]) {
        for k in 0..<2 where offset + k < b.count {
            let shift = bigEndian ? 8 * (1 - k) : 8 * k
            b[offset + k] = UInt8(truncatingIfNeeded: v >> UInt16(shift))
        }
    }
}
