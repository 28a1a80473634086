import FaceData
@testable import FacialMetrics
import Foundation
import MetricsEvaluation
import Testing

/// The card scale's own SD (`CardDetector.widthSD`): the detector's width is the mean of its top
/// and bottom widths, which end where the fitted left and right sides meet the top and bottom lines.
/// Simulated side fits (edge points with Gaussian noise, fitted by the detector's `robustLine`) give
/// that width's SD directly; the formula from the fits' reported end SDs must match it. The formula
/// before session 35 (√2 · the sides' mean end SD) reads twice the simulated SD and fails here.
@Suite("Card width SD")
struct CardWidthSDTests {
    @Test func formulaMatchesSimulatedSideFits() throws {
        var rng = SplitMix64(seed: 35)
        let left = 100.0, right = 300.0, top = 100.0, bottom = 226.0, sigma = 0.5
        let topLine = CardDetector.Line(n: SIMD2(0, 1), rho: top), bottomLine = CardDetector.Line(n: SIMD2(0, 1), rho: bottom)
        var widths: [Double] = [], predicted: [Double] = []
        for _ in 0..<2000 {
            // 40 edge points over the side's inner 80 %, as `refineSide` samples it.
            func side(_ x: Double) throws -> (line: CardDetector.Line, cornerSD: Double) {
                let pts = (0..<40).map { k in
                    SIMD2(x + sigma * rng.gaussian(), top + (bottom - top) * (0.1 + 0.8 * Double(k) / 39))
                }
                return try #require(CardDetector.robustLine(pts))
            }
            let l = try side(left), r = try side(right)
            let tl = try #require(CardDetector.intersect(topLine, l.line)), tr = try #require(CardDetector.intersect(topLine, r.line))
            let bl = try #require(CardDetector.intersect(bottomLine, l.line)), br = try #require(CardDetector.intersect(bottomLine, r.line))
            widths.append(((tr.x - tl.x) + (br.x - bl.x)) / 2)
            predicted.append(CardDetector.widthSD(leftEndSD: l.cornerSD, rightEndSD: r.cornerSD))
        }
        let mean = widths.reduce(0, +) / Double(widths.count)
        let simulated = (widths.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(widths.count - 1)).squareRoot()
        let formula = predicted.reduce(0, +) / Double(predicted.count)
        // σ·√2/√40 = 0.112 px without rejection. Measured: formula 0.106 px, simulated 0.120 px (the
        // 2000 widths' SD is known to ≈ 1.6 %): the fits' 2.5-SD rejection narrows the residuals they
        // report from, so the formula reads 12 % low; the old formula reads 0.211 px, 75 % high.
        #expect(abs(formula / simulated - 1) < 0.2, "formula \(formula) px, simulated \(simulated) px")
    }
}
