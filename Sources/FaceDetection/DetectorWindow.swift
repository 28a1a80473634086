/// Geometry of the detector's scanning window, in HOG cells of the pyramid level being scanned.
///
/// The window is `cells x cells` cells; the canonical face box (see `FaceBox`) is the inner square
/// of `faceCells x faceCells` cells starting `faceOffset` cells in from the window's top-left, so the
/// ring around it is context. With the defaults (10, 1, 8) and 8-pixel cells, a face is detected
/// when its canonical box is 64 px at some level, i.e. 64 px and up at full resolution.
public struct DetectorWindow: Sendable, Equatable {
    public var cells: Int
    public var faceOffset: Int
    public var faceCells: Int
    /// Pyramid levels per octave (scale step 2^(1/levelsPerOctave)).
    public var levelsPerOctave: Int

    public init(cells: Int = 10, faceOffset: Int = 1, faceCells: Int = 8, levelsPerOctave: Int = 4) {
        precondition(cells > 0 && faceCells > 0 && faceOffset >= 0 && faceOffset + faceCells <= cells,
                     "face square must lie inside the window")
        precondition(levelsPerOctave >= 1, "levelsPerOctave must be >= 1")
        self.cells = cells
        self.faceOffset = faceOffset
        self.faceCells = faceCells
        self.levelsPerOctave = levelsPerOctave
    }

    /// Side of the face square in level pixels.
    public var faceSidePixels: Int { faceCells * HOGFeatureMap.cellSize }

    /// The canonical face box, in input-image coordinates, of the window whose top-left cell is
    /// (cellX, cellY) on a level with the given per-axis scale (level size / input size).
    /// `borderPixels`: the level's padding (`HOGPyramid.Level.borderPixels`).
    public func faceBox(cellX: Int, cellY: Int, scaleX: Float, scaleY: Float, score: Float = 0, borderPixels: Int = 0) -> FaceBox {
        let cell = Float(HOGFeatureMap.cellSize)
        // Level pixel-edge coordinate e (= pixel-centre coordinate e - 0.5) maps to the input
        // coordinate e / scale - 0.5.
        let ex = Float(cellX + faceOffset) * cell - Float(borderPixels), ey = Float(cellY + faceOffset) * cell - Float(borderPixels)
        let side = Float(faceSidePixels)
        return FaceBox(x: ex / scaleX - 0.5, y: ey / scaleY - 0.5, width: side / scaleX, height: side / scaleY, score: score)
    }

    /// The whole window (face square plus context) in input-image coordinates.
    public func windowBox(cellX: Int, cellY: Int, scaleX: Float, scaleY: Float) -> FaceBox {
        let cell = Float(HOGFeatureMap.cellSize)
        let ex = Float(cellX) * cell, ey = Float(cellY) * cell, side = Float(cells) * cell
        return FaceBox(x: ex / scaleX - 0.5, y: ey / scaleY - 0.5, width: side / scaleX, height: side / scaleY)
    }
}
