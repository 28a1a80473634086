/// Recoverable defects a file source met while reading, kept as one line each.
///
/// Capped so a file made of junk cannot grow the list without bound: past `limit` lines only a
/// count is kept, and `lines` ends with a summary of how many were left out.
struct IssueLog {
    private var kept: [String] = []
    private var dropped = 0
    let limit: Int

    init(limit: Int = 100) { self.limit = limit }

    mutating func add(_ line: String) {
        if kept.count < limit { kept.append(line) } else { dropped += 1 }
    }

    var lines: [String] {
        dropped == 0 ? kept : kept + ["... and \(dropped) more issues"]
    }
}
