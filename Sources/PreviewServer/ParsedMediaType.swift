/// A `Content-Type` value parsed as RFC 9110 §8.3.1 reads it: `type "/" subtype *( ";" parameter )`,
/// case-insensitive, parameters ignored. `POST /frame` used to accept any type containing "json",
/// so `text/plain; charset=json`, `text/plain;json` and `multipart/form-data; boundary=json` got
/// through, and those are exactly the types a cross-origin page may POST without a preflight.
struct ParsedMediaType: Equatable {
    let type: String
    let subtype: String

    /// Nil when `text` is not `type/subtype` (with optional parameters after `;`).
    init?(_ text: String) {
        let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let type = parts[0].trimmingSpaces.lowercased(), subtype = parts[1].trimmingSpaces.lowercased()
        guard Self.isToken(type), Self.isToken(subtype) else { return nil }
        self.type = type
        self.subtype = subtype
    }

    static let json = ParsedMediaType(type: "application", subtype: "json")

    private init(type: String, subtype: String) {
        self.type = type
        self.subtype = subtype
    }

    /// RFC 9110 token characters.
    private static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(c)
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
