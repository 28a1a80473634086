/// The layout of the SIFT/HOG-like patch descriptor sampled around each landmark: a square grid of
/// `cells x cells` cells of `cellSamples x cellSamples` gradient samples, each cell a histogram of
/// `bins` signed gradient orientations (Lowe 2004; Dalal & Triggs 2005), as used by SDM
/// (Xiong & De la Torre 2013). Orientations and cells are in the face's normalised frame.
public struct DescriptorSpec: Sendable, Equatable {
    public var cells: Int
    public var cellSamples: Int
    public var bins: Int

    public init(cells: Int = 3, cellSamples: Int = 4, bins: Int = 8) {
        precondition(cells > 0 && cellSamples > 0 && bins > 1, "invalid descriptor layout")
        self.cells = cells; self.cellSamples = cellSamples; self.bins = bins
    }

    /// Floats per landmark.
    public var length: Int { cells * cells * bins }
    /// Side of the sampled grid (gradient samples plus a one-sample border for central differences).
    var gridSide: Int { cells * cellSamples + 2 }

    /// "cells=3 cell_samples=4 bins=8": the form stored in model metadata.
    public var text: String { "cells=\(cells) cell_samples=\(cellSamples) bins=\(bins)" }

    public init?(text: String) {
        var v: [String: Int] = [:]
        for part in text.split(separator: " ") {
            let kv = part.split(separator: "=")
            guard kv.count == 2, let n = Int(kv[1]) else { return nil }
            v[String(kv[0])] = n
        }
        guard let c = v["cells"], let s = v["cell_samples"], let b = v["bins"], c > 0, c <= 8, s > 0, s <= 16, b > 1, b <= 32 else { return nil }
        self.init(cells: c, cellSamples: s, bins: b)
    }
}
