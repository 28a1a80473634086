/// Where parts of a canonical glasses model cover the front view: the projection onto the x-y plane
/// (looking along −z, as the face sees the frame), rasterised on a 1 mm grid. Lens finding asks it
/// whether a point in front of an eye is covered (by a lens candidate) or enclosed (by a rim).
struct FrontFootprint {
    static let cellMM: Float = 1
    let originX: Float, originY: Float
    let width: Int, height: Int
    var covered: [Bool]

    init(boundsMin: SIMD3<Float>, boundsMax: SIMD3<Float>) {
        originX = boundsMin.x - 2
        originY = boundsMin.y - 2
        // Glasses are about 150 × 60 mm; the grid is capped so a huge model cannot cost much.
        width = min(2048, Int(((boundsMax.x - boundsMin.x + 4) / Self.cellMM).rounded(.up)) + 1)
        height = min(2048, Int(((boundsMax.y - boundsMin.y + 4) / Self.cellMM).rounded(.up)) + 1)
        covered = [Bool](repeating: false, count: width * height)
    }

    /// Marks every cell whose centre lies inside one of `triangles` of `primitive` (x-y only).
    mutating func add(_ primitive: MeshPrimitive, triangles: [Int]) {
        let p = primitive.positions, idx = primitive.indices
        for t in triangles {
            let a = p[Int(idx[3 * t])], b = p[Int(idx[3 * t + 1])], c = p[Int(idx[3 * t + 2])]
            fill(SIMD2(a.x, a.y), SIMD2(b.x, b.y), SIMD2(c.x, c.y))
        }
    }

    private mutating func fill(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) {
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard area != 0, area.isFinite else { return }
        let x0 = max(0, Int(((min(a.x, b.x, c.x) - originX) / Self.cellMM).rounded(.down)))
        let x1 = min(width - 1, Int(((max(a.x, b.x, c.x) - originX) / Self.cellMM).rounded(.up)))
        let y0 = max(0, Int(((min(a.y, b.y, c.y) - originY) / Self.cellMM).rounded(.down)))
        let y1 = min(height - 1, Int(((max(a.y, b.y, c.y) - originY) / Self.cellMM).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        let s: Float = area > 0 ? 1 : -1
        for y in y0...y1 {
            let py = originY + (Float(y) + 0.5) * Self.cellMM
            for x in x0...x1 {
                let px = originX + (Float(x) + 0.5) * Self.cellMM
                let w0 = s * ((b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x))
                let w1 = s * ((c.x - b.x) * (py - b.y) - (c.y - b.y) * (px - b.x))
                let w2 = s * ((a.x - c.x) * (py - c.y) - (a.y - c.y) * (px - c.x))
                if w0 >= 0 && w1 >= 0 && w2 >= 0 { covered[y * width + x] = true }
            }
        }
    }

    mutating func formUnion(_ other: FrontFootprint) {
        for i in covered.indices where other.covered[i] { covered[i] = true }
    }

    func isCovered(x: Float, y: Float) -> Bool {
        let cx = Int(((x - originX) / Self.cellMM).rounded(.down)), cy = Int(((y - originY) / Self.cellMM).rounded(.down))
        guard cx >= 0, cy >= 0, cx < width, cy < height else { return false }
        return covered[cy * width + cx]
    }

    /// Whether most of a disc of `radius` mm around (x, y) is covered.
    func coversDisc(x: Float, y: Float, radius: Float) -> Bool {
        var hit = 0, all = 0
        var dy = -radius
        while dy <= radius {
            var dx = -radius
            while dx <= radius {
                if dx * dx + dy * dy <= radius * radius { all += 1; if isCovered(x: x + dx, y: y + dy) { hit += 1 } }
                dx += Self.cellMM
            }
            dy += Self.cellMM
        }
        return all > 0 && hit * 4 >= all * 3
    }

    /// How many of the four directions (±x, ±y) from (x, y) meet a covered cell within `reach` mm:
    /// a rim around an opening is met in all four, a half rim in three.
    func enclosingDirections(x: Float, y: Float, reach: Float) -> Int {
        var n = 0
        for (dx, dy) in [(Float(1), Float(0)), (-1, 0), (0, 1), (0, -1)] {
            var d: Float = 0
            while d <= reach {
                if isCovered(x: x + dx * d, y: y + dy * d) { n += 1; break }
                d += Self.cellMM / 2
            }
        }
        return n
    }
}
