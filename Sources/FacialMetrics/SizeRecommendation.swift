import Foundation
import GlassesCatalogue

/// The glasses size to recommend from the measured face, as marked on a temple under ISO 8624
/// (boxing system, `A□DBL-TL`, the catalogue's `GlassesSize`), with a retail S/M/L label.
///
/// The rules (documented in `Sources/FacialMetrics/README.md`):
/// 1. Front width ≈ temple width: 2A + DBL + 2 × 6 mm (end pieces) = temple width.
/// 2. Frame PD (A + DBL, the distance between the boxed lens centres) = far PD + 6 mm, i.e. each optical
///    centre decentred ≈ 3 mm inwards, the usual comfortable range (0–5 mm per lens).
///    Solving 1 and 2: A = temple − 12 − (PD + 6), DBL = PD + 6 − A; A clamped to 40…62, DBL to 14…24
///    (the ranges catalogues offer), then both rounded to whole millimetres.
/// 3. Label by lens width, the common retail chart: S ≤ 50, M 51–54, L ≥ 55; temple length 135 (S),
///    140 (M), 145 (L) mm (head length is not measured).
public struct SizeRecommendation: Sendable, Equatable {
    /// Whole millimetres, so `size.code` reads as a temple marking.
    public var size: GlassesSize
    public var label: String

    public var code: String { size.code }

    public init(size: GlassesSize, label: String) {
        self.size = size; self.label = label
    }

    public static func recommended(farPD: Double, templeWidth: Double) -> SizeRecommendation? {
        guard farPD.isFinite, templeWidth.isFinite, farPD > 0, templeWidth > 0 else { return nil }
        let framePD = farPD + 6
        let a = min(62, max(40, templeWidth - 12 - framePD))
        let dbl = min(24, max(14, framePD - a))
        let lens = a.rounded(), bridge = dbl.rounded()
        let label = lens <= 50 ? "S" : (lens <= 54 ? "M" : "L")
        let temple: Float = label == "S" ? 135 : (label == "M" ? 140 : 145)
        return SizeRecommendation(size: GlassesSize(lensWidth: Float(lens), bridge: Float(bridge), templeLength: temple), label: label)
    }
}
