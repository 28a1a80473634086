import Foundation

/// Draws a bench report as one standalone SVG: per-stage p50 breakdown bars (each path next to the
/// codec floor of the same run) above the per-frame latency distributions (cumulative curves).
enum BenchSVG {
    static let stageColours: [String: String] = [
        "decode": "#4e79a7", "track": "#f28e2b", "light": "#edc948", "lighting": "#edc948", "metrics": "#b07aa1",
        "render": "#e15759", "annotate": "#76b7b2", "encode": "#59a14f",
    ]
    static let curveColours = ["#e15759", "#4e79a7", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac", "#ff9da7"]

    static func render(_ report: BenchReport) -> String {
        func short(_ r: BenchRunResult) -> String { "\((r.input as NSString).deletingPathExtension) \(r.size)" }
        let longest = report.runs.map { short($0).count + 9 }.max() ?? 20
        let width: Double = 900, left = max(120, 14 + 6.6 * Double(longest)), right: Double = 30
        let plotWidth = width - left - right
        // Bars: per run, the floor (decode RGB, encode), the try-on and the tracking path.
        struct Bar { var label: String; var parts: [(String, Double)]; var cpu: Double }
        var bars: [Bar] = []
        for r in report.runs {
            bars.append(Bar(label: "\(short(r)) floor", parts: [("decode", r.floor.decodeRGB.p50), ("encode", r.floor.encode.p50)],
                            cpu: r.floor.cpu.p50))
            bars.append(Bar(label: "\(short(r)) try-on", parts: r.tryOn.stages.map { ($0.name, $0.milliseconds.p50) }, cpu: r.tryOn.cpu.p50))
            bars.append(Bar(label: "\(short(r)) tracking", parts: r.tracking.stages.map { ($0.name, $0.milliseconds.p50) }, cpu: r.tracking.cpu.p50))
        }
        let rowHeight: Double = 22, barTop: Double = 70
        let barsHeight = Double(bars.count) * rowHeight
        let maxBar = niceCeiling((bars.map { max($0.parts.reduce(0) { $0 + $1.1 }, $0.cpu) }.max() ?? 1) * 1.15)
        // The distributions of the first input only: one chart stays readable (every run is in the JSON).
        let firstInput = report.runs.first?.input
        let curveRuns = report.runs.filter { $0.input == firstInput }
        let curveTop = barTop + barsHeight + 110, curveHeight: Double = 300
        let height = curveTop + curveHeight + 60 + Double(curveRuns.count * 3) * 16

        var s = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(width / 2)" y="22" text-anchor="middle" font-size="15">lorgnette bench: per-stage p50, wall (ms per frame)</text>
        <text x="\(width / 2)" y="40" text-anchor="middle" fill="#555">\(escape("\(report.machine.cpu), \(report.machine.logicalCores) cores, \(report.machine.build), \(report.date)"))</text>

        """
        // Stage legend.
        let stageNames = orderedStages(bars.flatMap { $0.parts.map(\.0) })
        let cpuKey = "end-to-end thread CPU p50"
        func keyWidth(_ name: String) -> Double { 30 + Double(name.count) * 7 }
        // Aligned with the bars unless long labels would push it past the right edge.
        let legendWidth = stageNames.reduce(0) { $0 + keyWidth($1) } + 6 + 7 * Double(cpuKey.count)
        var x = max(10, min(left, width - 10 - legendWidth))
        for name in stageNames {
            s += "<rect x=\"\(f(x))\" y=\"50\" width=\"12\" height=\"12\" fill=\"\(stageColour(name))\"/>"
            s += "<text x=\"\(f(x + 16))\" y=\"60\">\(escape(name))</text>\n"
            x += keyWidth(name)
        }
        s += "<line x1=\"\(f(x))\" y1=\"49\" x2=\"\(f(x))\" y2=\"63\" stroke=\"black\" stroke-width=\"2\"/>"
        s += "<text x=\"\(f(x + 6))\" y=\"60\">\(cpuKey)</text>\n"
        func px(_ ms: Double) -> Double { left + plotWidth * ms / maxBar }
        for tick in 0...5 {
            let ms = maxBar * Double(tick) / 5
            s += "<line x1=\"\(f(px(ms)))\" y1=\"\(f(barTop))\" x2=\"\(f(px(ms)))\" y2=\"\(f(barTop + barsHeight))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(px(ms)))\" y=\"\(f(barTop + barsHeight + 16))\" text-anchor=\"middle\">\(label(ms))</text>\n"
        }
        s += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(barTop + barsHeight + 34))\" text-anchor=\"middle\">milliseconds per frame (p50 of each stage, stacked)</text>\n"
        for (k, bar) in bars.enumerated() {
            let y = barTop + Double(k) * rowHeight
            s += "<text x=\"\(f(left - 8))\" y=\"\(f(y + 15))\" text-anchor=\"end\">\(escape(bar.label))</text>\n"
            var start = 0.0
            for (name, ms) in bar.parts where ms > 0 {
                s += "<rect x=\"\(f(px(start)))\" y=\"\(f(y + 3))\" width=\"\(f(max(px(start + ms) - px(start), 0.5)))\" height=\"\(f(rowHeight - 6))\" fill=\"\(stageColour(name))\"><title>\(escape(name)) \(label(ms)) ms</title></rect>\n"
                start += ms
            }
            s += "<line x1=\"\(f(px(bar.cpu)))\" y1=\"\(f(y + 1))\" x2=\"\(f(px(bar.cpu)))\" y2=\"\(f(y + rowHeight - 1))\" stroke=\"black\" stroke-width=\"2\"><title>thread CPU p50 \(label(bar.cpu)) ms</title></line>\n"
            s += "<text x=\"\(f(px(max(start, bar.cpu)) + 4))\" y=\"\(f(y + 15))\" fill=\"#333\">\(label(start)) (CPU \(label(bar.cpu)))</text>\n"
        }

        // Latency distributions: fraction of frames at or under x ms, end to end.
        var curves: [(String, [Double])] = []
        for r in curveRuns {
            curves.append(("\(short(r)) try-on", r.tryOn.samples))
            curves.append(("\(short(r)) floor", r.floor.samples))
            curves.append(("\(short(r)) tracking", r.tracking.samples))
        }
        let p99s = curves.map { LatencySummary($0.1).p99 }
        let maxX = niceCeiling((p99s.max() ?? 1) * 1.25)
        func cx(_ ms: Double) -> Double { left + plotWidth * min(ms, maxX) / maxX }
        func cy(_ fraction: Double) -> Double { curveTop + curveHeight * (1 - fraction) }
        s += "<text x=\"\(width / 2)\" y=\"\(f(curveTop - 20))\" text-anchor=\"middle\" font-size=\"15\">latency distribution of \(escape((firstInput ?? "") as String)) (wall ms per frame, end to end)</text>\n"
        for tick in 0...10 {
            let fraction = Double(tick) / 10, ms = maxX * Double(tick) / 10
            s += "<line x1=\"\(f(left))\" y1=\"\(f(cy(fraction)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(cy(fraction)))\" stroke=\"#eee\"/>"
            s += "<line x1=\"\(f(cx(ms)))\" y1=\"\(f(curveTop))\" x2=\"\(f(cx(ms)))\" y2=\"\(f(curveTop + curveHeight))\" stroke=\"#eee\"/>"
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(cy(fraction) + 4))\" text-anchor=\"end\">\(String(format: "%.1f", fraction))</text>"
            s += "<text x=\"\(f(cx(ms)))\" y=\"\(f(curveTop + curveHeight + 16))\" text-anchor=\"middle\">\(label(ms))</text>\n"
        }
        s += "<rect x=\"\(f(left))\" y=\"\(f(curveTop))\" width=\"\(f(plotWidth))\" height=\"\(f(curveHeight))\" fill=\"none\" stroke=\"black\"/>\n"
        s += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(curveTop + curveHeight + 34))\" text-anchor=\"middle\">milliseconds (frames slower than \(label(maxX)) ms are drawn at the right edge)</text>\n"
        s += "<text x=\"\(f(left - 40))\" y=\"\(f(curveTop + curveHeight / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 \(f(left - 40)) \(f(curveTop + curveHeight / 2)))\">fraction of frames</text>\n"
        for (k, curve) in curves.enumerated() {
            let colour = curveColours[k % curveColours.count]
            let dash = curve.0.hasSuffix("floor") ? " stroke-dasharray=\"5,3\"" : ""
            let sorted = curve.1.sorted()
            guard !sorted.isEmpty else { continue }
            var points = ["\(f(cx(sorted[0]))),\(f(cy(0)))"]
            for (i, ms) in sorted.enumerated() {
                points.append("\(f(cx(ms))),\(f(cy(Double(i) / Double(sorted.count))))")
                points.append("\(f(cx(ms))),\(f(cy(Double(i + 1) / Double(sorted.count))))")
            }
            s += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.8\"\(dash) points=\"\(points.joined(separator: " "))\"/>\n"
            let ly = curveTop + curveHeight + 52 + Double(k) * 16, lx = left
            s += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 4))\" x2=\"\(f(lx + 24))\" y2=\"\(f(ly - 4))\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>"
            s += "<text x=\"\(f(lx + 30))\" y=\"\(f(ly))\">\(escape(curve.0)) (p50 \(label(LatencySummary(curve.1).p50)), p99 \(label(p99s[k])))</text>\n"
        }
        s += "</svg>\n"
        return s
    }

    /// Stage names in pipeline order (known ones first), each once.
    static func orderedStages(_ names: [String]) -> [String] {
        let order = ["decode", "track", "light", "lighting", "metrics", "render", "annotate", "encode"]
        var seen = Set<String>(), result: [String] = []
        for n in order + names where names.contains(n) && !seen.contains(n) { seen.insert(n); result.append(n) }
        return result
    }

    static func stageColour(_ name: String) -> String { stageColours[name] ?? "#9c755f" }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for m in [1.0, 2, 5, 10] where m * power >= value { return m * power }
        return 10 * power
    }

    static func label(_ ms: Double) -> String { ms >= 10 ? String(format: "%.0f", ms) : String(format: "%.1f", ms) }
    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
