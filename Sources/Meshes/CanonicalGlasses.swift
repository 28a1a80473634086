/// A glasses model in the canonical glasses frame, the frame the try-on places on a face:
/// millimetres; +x across the frame towards the wearer's left (the viewer's right when the
/// glasses face the viewer), +y up, +z out of the front (so the temples run towards −z); origin
/// at the centre of the bridge on the frame front (x = 0 mid-way between the hinges, y = the
/// front's vertical centre, z = the front's most forward point).
///
/// `sourceFromCanonical` maps back to the file's coordinates; `regions` holds the landmarks the
/// fitting stage needs (see `GlassesRegions`).
public struct CanonicalGlasses: Sendable {
    /// How the millimetre scale was chosen.
    public enum Scale: Sendable, Equatable {
        /// The file is metric (glTF metres) and its frame width is plausible for real glasses.
        case metric
        /// The file is unitless; its width was scaled to this declared frame width (mm).
        case declaredWidth(Float)
    }

    public var mesh: Mesh
    public var regions: GlassesRegions
    public var scale: Scale
    /// Canonical = `canonicalFromSource.apply(source)`.
    public var canonicalFromSource: Transform3D
    /// The file's axis (0 x, 1 y, 2 z) that the frame's width runs along, and the file's direction
    /// (unit vector) the temples point to: what the normaliser found from the geometry.
    public var sourceWidthAxis: Int
    public var sourceTempleDirection: SIMD3<Float>
}

/// Brings any glasses model into the canonical glasses frame (see `CanonicalGlasses`).
///
/// Orientation comes from the geometry, not from naming conventions: glTF fixes +y up; of the two
/// horizontal axes, the width axis is the one whose central slab (the middle 16 % of the width)
/// is compact along the other axis — it holds only the bridge, whereas a slab across the depth
/// axis cuts both temples and spans the whole width. The front is the end of the depth axis where
/// that bridge slab lies; the temples point the other way.
///
/// Scale: a model whose width is 0.10–0.20 file units is taken as metric (glTF metres; real
/// frames are 120–150 mm wide, e.g. SunglassesKhronos at 150 mm); any other model is scaled to
/// `declaredWidthMM` (default 140 mm, a typical adult frame). An explicit width always wins.
public enum GlassesNormalizer {
    public static let defaultFrameWidthMM: Float = 140

    public static func normalize(_ mesh: Mesh, declaredWidthMM: Float? = nil) -> CanonicalGlasses {
        guard let box = mesh.bounds else {
            return CanonicalGlasses(mesh: mesh, regions: GlassesRegions.empty, scale: .declaredWidth(0), canonicalFromSource: .identity,
                                    sourceWidthAxis: 0, sourceTempleDirection: [0, 0, -1])
        }
        let centre = (box.min + box.max) / 2
        let extent = box.max - box.min
        let vertices = mesh.primitives.flatMap { $0.positions }
        // The central slab across each candidate width axis: for the true width axis it holds
        // only the bridge, compact in depth at the front; across the depth axis it cuts both
        // temples, so its vertices spread over the frame's whole width.
        func centralSlab(_ axis: Int) -> [Float] {
            let other = 2 - axis
            return vertices.filter { abs($0[axis] - centre[axis]) <= 0.08 * extent[axis] }.map { $0[other] }.sorted()
        }
        func spread(_ axis: Int) -> Float {
            let values = centralSlab(axis)
            guard values.count >= 2, extent[2 - axis] > 0 else { return 1 }
            let lo = values[values.count / 20], hi = values[values.count - 1 - values.count / 20]
            return (hi - lo) / extent[2 - axis]
        }
        let widthAxis = spread(0) <= spread(2) ? 0 : 2
        let depthAxis = 2 - widthAxis
        let slab = centralSlab(widthAxis)
        let median = slab.isEmpty ? centre[depthAxis] : slab[slab.count / 2]
        var front = SIMD3<Float>.zero
        front[depthAxis] = median >= centre[depthAxis] ? 1 : -1
        let up = SIMD3<Float>(0, 1, 0)
        let across = simdCross(up, front)
        // Rotation whose rows are the canonical axes expressed in source coordinates.
        let rotation = Transform3D(columns: [across.x, up.x, front.x], [across.y, up.y, front.y], [across.z, up.z, front.z])
        let width = extent[widthAxis]
        let scale: CanonicalGlasses.Scale
        let factor: Float
        if let declared = declaredWidthMM, declared > 0, width > 0 {
            scale = .declaredWidth(declared); factor = declared / width
        } else if width >= 0.10 && width <= 0.20 {
            scale = .metric; factor = 1000
        } else {
            scale = .declaredWidth(defaultFrameWidthMM); factor = width > 0 ? defaultFrameWidthMM / width : 1
        }
        let oriented = Transform3D.scaling(factor) * rotation * Transform3D.translation(-centre)
        let provisional = mesh.transformed(by: oriented)
        let origin = GlassesRegions.bridgeOrigin(of: provisional)
        let canonicalFromSource = Transform3D.translation(-origin) * oriented
        let canonical = mesh.transformed(by: canonicalFromSource)
        return CanonicalGlasses(mesh: canonical, regions: GlassesRegions.detect(in: canonical), scale: scale,
                                canonicalFromSource: canonicalFromSource, sourceWidthAxis: widthAxis, sourceTempleDirection: -front)
    }
}
