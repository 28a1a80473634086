import Meshes

/// Prints which parts `view` and `live` draw as lenses and why (issue 23), on standard error so
/// a piped output stays clean; a model with none says so, since opaque lenses hide the eyes.
func printLenses(_ lenses: [LensFinding], prefix: String) {
    if lenses.isEmpty {
        printError("\(prefix): no lenses found (no transmissive, translucent or lens-named part, none spanning a rim opening); --lens NAME picks one")
        return
    }
    for lens in lenses.prefix(12) { printError("\(prefix): lens \(lens)") }
    if lenses.count > 12 { printError("\(prefix): ... \(lenses.count - 12) more lens parts") }
}
