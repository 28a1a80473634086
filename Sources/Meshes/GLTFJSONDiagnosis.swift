import Foundation

/// Says where a glTF document's JSON went wrong when `JSONDecoder` will not: on Linux it reports
/// every syntax error, and every number too large for the member it fills (1e39 as a Float or an
/// Int), as "The given data was not valid JSON." with no position. `JSONSerialization` reads the
/// same bytes, so it gives the syntax error's position (turned into line and column here); when it
/// accepts them the JSON is valid and the fault is a number out of range, found by walking the tree.
enum GLTFJSONDiagnosis {
    static func reason(_ json: [UInt8]) -> String {
        let tree: Any
        do { tree = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed]) } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            return "invalid glTF JSON: \(detail)" + (position(in: detail, json: json).map { " (line \($0.line), column \($0.column))" } ?? "")
        }
        if let (path, value) = numberOutOfRange(tree, path: "") {
            return "glTF number \(value) at \(path.isEmpty ? "the top level" : path) is out of range (larger than a 32-bit float or an integer can hold)"
        }
        return "invalid glTF JSON: a member has a value the glTF schema does not allow"
    }

    /// Line and column (from 1) of "around character N" in Foundation's message.
    static func position(in message: String, json: [UInt8]) -> (line: Int, column: Int)? {
        guard let range = message.range(of: "character ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        guard let offset = Int(digits), offset >= 0, offset <= json.count else { return nil }
        var line = 1, column = 1
        for byte in json[0..<offset] { if byte == 0x0A { line += 1; column = 1 } else { column += 1 } }
        return (line, column)
    }

    /// The first number (members in key order) that fits neither a Float nor an Int.
    static func numberOutOfRange(_ node: Any, path: String) -> (String, String)? {
        if let object = node as? [String: Any] {
            for key in object.keys.sorted() {
                if let hit = numberOutOfRange(object[key]!, path: path + "." + key) { return hit }
            }
        } else if let array = node as? [Any] {
            for (i, element) in array.enumerated() {
                if let hit = numberOutOfRange(element, path: path + "[\(i)]") { return hit }
            }
        } else if let number = node as? NSNumber {
            let value = number.doubleValue
            if !(abs(value) <= Double(Float.greatestFiniteMagnitude)) { return (path, "\(value)") }
        }
        return nil
    }
}
