import Foundation

/// A recommended spectacle frame size as marked on a temple under ISO 8624 (boxing system):
/// `A□DBL-TL`, lens (box) width A, distance between lenses DBL, temple length TL, all in mm, and a
/// retail S/M/L label.
///
/// The rules (documented in `Sources/FacialMetrics/README.md`):
/// 1. Front width ≈ temple width: 2A + DBL + 2 × 6 mm (end pieces) = temple width.
/// 2. Frame PD (A + DBL, the distance between the boxed lens centres) = far PD + 6 mm, i.e. each optical
///    centre decentred ≈ 3 mm inwards, the usual comfortable range (0–5 mm per lens).
///    Solving 1 and 2: A = temple − 12 − (PD + 6), DBL = PD + 6 − A; A clamped to 40…62, DBL to 14…24
///    (the ranges catalogues offer), then both rounded to whole millimetres.
/// 3. Label by lens width, the common retail chart: S ≤ 50, M 51–54, L ≥ 55; temple length 135 (S),
///    140 (M), 145 (L) mm (head length is not measured).
public struct FrameSize: Sendable, Equatable {
    public var lensWidth: Int
    public var bridge: Int
    public var templeLength: Int
    public var label: String

    /// `"52□18-140"`.
    public var code: String { "\(lensWidth)□\(bridge)-\(templeLength)" }

    public init(lensWidth: Int, bridge: Int, templeLength: Int, label: String) {
        self.lensWidth = lensWidth; self.bridge = bridge; self.templeLength = templeLength; self.label = label
    }

    public static func recommended(farPD: Double, templeWidth: Double) -> FrameSize? {
        guard farPD.isFinite, templeWidth.isFinite, farPD > 0, templeWidth > 0 else { return nil }
        let framePD = farPD + 6
        let a = min(62, max(40, templeWidth - 12 - framePD))
        let dbl = min(24, max(14, framePD - a))
        let lens = Int(a.rounded()), bridge = Int(dbl.rounded())
        let label = lens <= 50 ? "S" : (lens <= 54 ? "M" : "L")
        let temple = label == "S" ? 135 : (label == "M" ? 140 : 145)
        return FrameSize(lensWidth: lens, bridge: bridge, templeLength: temple, label: label)
    }
}
