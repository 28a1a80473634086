/// The words that mean "lens" in part and material names, as exporters write them: split into
/// words at non-letters, camel case and digits ("3_Cargobike_BoxGlass3" → cargobike, box, glass),
/// so "glass" matches but "glasses"/"sunglasses" (the whole object) and "fiberglass" do not.
public enum LensNames {
    /// English, Spanish/Italian/Portuguese, French, German (with and without umlaut), Dutch, Polish.
    static let lensWords: Set<String> = [
        "glass", "lens", "lenses", "lense", "lente", "lentes", "lenti", "verre", "verres", "lentille", "lentilles",
        "glas", "gläser", "glaeser", "linse", "linsen", "brillenglas", "brillenglaeser", "cristal", "cristales",
        "vidrio", "vidrios", "vetro", "vetri", "soczewka", "szklo", "szkło", "lenzen",
    ]
    /// Words that name the frame around a lens: "glass_frame" or "lens rim" is not a lens.
    static let frameWords: Set<String> = ["frame", "frames", "rim", "rims", "temple", "temples", "arm", "arms", "bridge",
                                          "hinge", "pad", "pads", "montura", "monture", "gestell", "fassung", "border", "holder"]

    static func words(_ name: String) -> [String] {
        var out: [String] = []
        var current = ""
        var previous: Character? = nil
        for ch in name {
            let boundary: Bool
            if !ch.isLetter && !ch.isNumber { boundary = true }
            else if let p = previous, (p.isLowercase && ch.isUppercase) || (p.isLetter != ch.isLetter) { boundary = true }
            else { boundary = false }
            if boundary, !current.isEmpty { out.append(current.lowercased()); current = "" }
            if ch.isLetter || ch.isNumber { current.append(ch) }
            previous = ch
        }
        if !current.isEmpty { out.append(current.lowercased()) }
        return out
    }

    /// The lens word in `name`, or nil when it has none or also names a frame part.
    public static func lensWord(in name: String) -> String? {
        let w = words(name)
        guard !w.contains(where: frameWords.contains) else { return nil }
        return w.first(where: lensWords.contains)
    }
}
