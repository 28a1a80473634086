/// Reader for the 300-W `.pts` landmark format:
/// ```
/// version: 1
/// n_points:  68
/// {
/// x y
/// ...
/// }
/// ```
/// Coordinates are returned exactly as stored (the shared data uses 0-based pixel centres).
public enum PTSFile {
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String) throws -> [SIMD2<Float>] {
        var declared: Int?
        var points: [SIMD2<Float>] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: " \t\r")
            if line.isEmpty { continue }
            if line.hasPrefix("version") { continue }
            if line.hasPrefix("n_points") {
                let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" })
                declared = parts.last.flatMap { Int($0) }
                continue
            }
            if line == "{" { continue }
            if line == "}" { break }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let x = Float(fields[0]), let y = Float(fields[1]) else {
                throw ParseError(description: "bad .pts line: \(line)")
            }
            points.append(SIMD2(x, y))
        }
        if let declared, declared != points.count {
            throw ParseError(description: ".pts declares \(declared) points but has \(points.count)")
        }
        guard !points.isEmpty else { throw ParseError(description: ".pts has no points") }
        return points
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return s
    }
}
