/// Landmarks of a glasses frame in the canonical glasses frame (millimetres, see `CanonicalGlasses`),
/// found from the geometry so any model can be fitted to a face:
/// - `bridge`: where the frame rests on the nose — the lowest point of the front near x = 0
///   (the underside of the bridge, or of the nose pads when the model has them);
/// - `leftHinge` / `rightHinge`: where the temples leave the front — the outermost points of the
///   front slab on each side (+x is the wearer's left);
/// - `leftTempleEnd` / `rightTempleEnd`: the rearmost points of each temple (the ear end);
/// - `frameWidth`: overall width (x extent), `templeLength`: z distance from the hinges to the
///   temple ends, `frontDepth`: thickness of the front slab used for the detection.
public struct GlassesRegions: Sendable, Equatable {
    public var bridge: SIMD3<Float>
    public var leftHinge: SIMD3<Float>
    public var rightHinge: SIMD3<Float>
    public var leftTempleEnd: SIMD3<Float>
    public var rightTempleEnd: SIMD3<Float>
    public var frameWidth: Float
    public var templeLength: Float
    public var frontDepth: Float

    public static let empty = GlassesRegions(bridge: .zero, leftHinge: .zero, rightHinge: .zero, leftTempleEnd: .zero,
                                           rightTempleEnd: .zero, frameWidth: 0, templeLength: 0, frontDepth: 0)

    /// The front slab: vertices within this fraction of the depth extent from the most forward point.
    static let frontFraction: Float = 0.12

    static func vertices(_ mesh: Mesh) -> [SIMD3<Float>] { mesh.primitives.flatMap { $0.positions } }

    /// The canonical origin for an oriented, scaled mesh: x mid-way across, y mid-height of the
    /// front slab, z at the front's most forward point.
    static func bridgeOrigin(of mesh: Mesh) -> SIMD3<Float> {
        guard let box = mesh.bounds else { return .zero }
        let slab = box.max.z - frontFraction * (box.max.z - box.min.z)
        var lo: Float = .infinity, hi: Float = -.infinity
        for v in vertices(mesh) where v.z >= slab { lo = min(lo, v.y); hi = max(hi, v.y) }
        return SIMD3<Float>((box.min.x + box.max.x) / 2, lo <= hi ? (lo + hi) / 2 : (box.min.y + box.max.y) / 2, box.max.z)
    }

    public static func detect(in mesh: Mesh) -> GlassesRegions {
        guard let box = mesh.bounds else { return .empty }
        let all = vertices(mesh)
        let depth = box.max.z - box.min.z
        let width = box.max.x - box.min.x
        let slab = box.max.z - frontFraction * depth
        let front = all.filter { $0.z >= slab }
        // Bridge: lowest front vertex within 3 % of the width of the centre line (narrow enough to
        // miss the nasal rims of thick acetate frames with a short bridge).
        let central = front.filter { abs($0.x) <= 0.03 * width }
        var bridge = SIMD3<Float>(0, 0, box.max.z)
        if let low = central.min(by: { $0.y < $1.y }) { bridge = [0, low.y, low.z] }
        // Hinges: centroid of the outermost front-region vertices (within 3 % of the width of the
        // side's extreme), in the front 30 % of the depth.
        let hingeZone = box.max.z - 0.30 * depth
        func hinge(_ side: Float) -> SIMD3<Float> {
            let candidates = all.filter { $0.z >= hingeZone && $0.x * side > 0 }
            guard let extreme = candidates.map({ $0.x * side }).max() else { return [side * width / 2, 0, box.max.z] }
            let near = candidates.filter { $0.x * side >= extreme - 0.03 * width }
            return near.reduce(.zero, +) / Float(near.count)
        }
        func templeEnd(_ side: Float) -> SIMD3<Float> {
            let candidates = all.filter { $0.x * side > 0.25 * width / 2 }
            guard let back = candidates.min(by: { $0.z < $1.z }) else { return [side * width / 2, 0, box.min.z] }
            return back
        }
        let left = hinge(1), right = hinge(-1)
        let leftEnd = templeEnd(1), rightEnd = templeEnd(-1)
        return GlassesRegions(bridge: bridge, leftHinge: left, rightHinge: right, leftTempleEnd: leftEnd, rightTempleEnd: rightEnd,
                            frameWidth: width, templeLength: ((left.z - leftEnd.z) + (right.z - rightEnd.z)) / 2,
                            frontDepth: frontFraction * depth)
    }
}
