import Foundation

/// Draws cumulative error distribution curves (fraction of faces with NME ≤ x) as a standalone SVG.
public enum CEDCurveSVG {
    public struct Curve {
        public var label: String
        /// Per-face NMEs; +∞ for misses (they never enter the curve).
        public var errors: [Float]
        public var colour: String
        public init(label: String, errors: [Float], colour: String) {
            self.label = label; self.errors = errors; self.colour = colour
        }
    }

    public static func render(_ curves: [Curve], maxError: Float = 0.10, title: String) -> String {
        let w: Float = 640, h: Float = 440, left: Float = 60, right: Float = 20, top: Float = 40, bottom: Float = 50
        let pw = w - left - right, ph = h - top - bottom
        func px(_ e: Float) -> Float { left + pw * min(e, maxError) / maxError }
        func py(_ f: Float) -> Float { top + ph * (1 - f) }
        var s = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(w))" height="\(Int(h))" viewBox="0 0 \(Int(w)) \(Int(h))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(w / 2)" y="22" text-anchor="middle" font-size="14">\(escape(title))</text>

        """
        for i in 0...10 {
            let f = Float(i) / 10, e = maxError * Float(i) / 10
            s += "<line x1=\"\(left)\" y1=\"\(py(f))\" x2=\"\(left + pw)\" y2=\"\(py(f))\" stroke=\"#ddd\"/>\n"
            s += "<line x1=\"\(px(e))\" y1=\"\(top)\" x2=\"\(px(e))\" y2=\"\(top + ph)\" stroke=\"#ddd\"/>\n"
            s += "<text x=\"\(left - 6)\" y=\"\(py(f) + 4)\" text-anchor=\"end\">\(String(format: "%.1f", f))</text>\n"
            s += "<text x=\"\(px(e))\" y=\"\(top + ph + 16)\" text-anchor=\"middle\">\(String(format: "%.2f", e))</text>\n"
        }
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(pw)\" height=\"\(ph)\" fill=\"none\" stroke=\"black\"/>\n"
        s += "<text x=\"\(left + pw / 2)\" y=\"\(h - 12)\" text-anchor=\"middle\">NME (inter-ocular, outer eye corners)</text>\n"
        s += "<text x=\"16\" y=\"\(top + ph / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(top + ph / 2))\">fraction of faces</text>\n"
        for (k, c) in curves.enumerated() {
            let sorted = c.errors.sorted()
            let n = Float(max(sorted.count, 1))
            var points = ["\(px(0)),\(py(0))"]
            var reached: Float = 0
            for (i, e) in sorted.enumerated() where e <= maxError {
                points.append("\(px(e)),\(py(reached))")
                reached = Float(i + 1) / n
                points.append("\(px(e)),\(py(reached))")
            }
            points.append("\(px(maxError)),\(py(reached))")
            s += "<polyline fill=\"none\" stroke=\"\(c.colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
            let ly = top + ph - 20 - Float(k) * 18
            s += "<line x1=\"\(left + pw - 200)\" y1=\"\(ly)\" x2=\"\(left + pw - 175)\" y2=\"\(ly)\" stroke=\"\(c.colour)\" stroke-width=\"2\"/>\n"
            s += "<text x=\"\(left + pw - 170)\" y=\"\(ly + 4)\">\(escape(c.label))</text>\n"
        }
        return s + "</svg>\n"
    }

    static func escape(_ t: String) -> String {
        t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
