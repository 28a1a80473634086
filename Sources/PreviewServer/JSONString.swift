import Foundation

/// JSON string literals for the replies built by hand (the engine state's errors, `lorgnette
/// landmarks` lines), escaping as JSONSerialization would but leaving "/" alone.
public enum JSONString {
    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
